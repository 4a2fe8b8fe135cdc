package io.paysession.api.session;

import java.util.Objects;

/**
 * A payment with a recurrent token: {@code initiator} {@code merchant} (MIT, no customer present: no 3-D
 * Secure, no payer action) or {@code client} (CIT, the customer is there and acts as with the original
 * method). {@code source} is the method the token was issued for, as the vault and the rails know it.
 */
public record RecurrentMethod(String token, Initiator initiator, PaymentMethod source) implements PaymentMethod {

    public enum Initiator {
        MERCHANT("merchant"),
        CLIENT("client");

        private final String wireName;

        Initiator(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String json() {
            return wireName;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Initiator fromWireName(String name) {
            for (Initiator initiator : values()) {
                if (initiator.wireName.equals(name)) {
                    return initiator;
                }
            }
            throw new IllegalArgumentException("unknown initiator " + name);
        }
    }

    public RecurrentMethod {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(initiator, "initiator");
        Objects.requireNonNull(source, "source");
        if (source instanceof RecurrentMethod) {
            throw new IllegalArgumentException("a token stands for an original method");
        }
    }

    @Override
    public String wireType() {
        return "recurrent";
    }

    /** A charge with a token holds like its original method does. */
    @Override
    public boolean supportsHold() {
        return source.supportsHold();
    }

    public boolean merchantInitiated() {
        return initiator == Initiator.MERCHANT;
    }
}
