package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Where a payout goes, as events carry it: a card held in the vault (never its number), a bank account
 * by IBAN, or a phone in the instant-payment system. The JSON type names are stored and never change.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = PayoutMethod.Card.class, name = "card"),
        @JsonSubTypes.Type(value = PayoutMethod.Iban.class, name = "iban"),
        @JsonSubTypes.Type(value = PayoutMethod.FasterPayment.class, name = "faster_payment_system"),
        @JsonSubTypes.Type(value = PayoutMethod.FasterPaymentVerification.class,
                name = "faster_payment_system_verification")
})
public sealed interface PayoutMethod {

    /**
     * A card: {@code source} is how the partner named it ({@code bank_card}, {@code encrypted_card},
     * {@code tokenized_card}); the card itself is the vault token.
     */
    record Card(String source, String vaultToken, String brand, String bin, String last4) implements PayoutMethod {
    }

    /** A bank account: {@code systemType} {@code global} ({@code global {iban, description}}) or {@code iban}. */
    record Iban(String systemType, String iban, String description) implements PayoutMethod {
    }

    /** A payout to a phone in the instant-payment system, at a bank of its directory. */
    record FasterPayment(String phone, String bankId, String description) implements PayoutMethod {
    }

    /** {@code fps/customer_verification}: is this phone registered at this bank? Nothing is paid. */
    record FasterPaymentVerification(String phone, String bankId) implements PayoutMethod {
    }
}
