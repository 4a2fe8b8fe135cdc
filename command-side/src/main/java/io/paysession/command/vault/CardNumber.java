package io.paysession.command.vault;

import java.util.Objects;
import java.util.Optional;

/**
 * A full card number. Its {@code toString} is masked, so that a number that reaches a log line or an
 * exception message by accident still shows only BIN and last four digits. {@link #digits()} is the one
 * way to read it, for the vault and for rail adapters.
 */
public final class CardNumber {

    private final String digits;

    private CardNumber(String digits) {
        this.digits = digits;
    }

    /** 12 to 19 digits; anything else is not a card number. The text is never echoed in a message. */
    public static Optional<CardNumber> parse(String text) {
        if (text == null || text.length() < 12 || text.length() > 19) {
            return Optional.empty();
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return Optional.empty();
            }
        }
        return Optional.of(new CardNumber(text));
    }

    public String digits() {
        return digits;
    }

    public boolean passesLuhnCheck() {
        int sum = 0;
        boolean doubleIt = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int digit = digits.charAt(i) - '0';
            if (doubleIt) {
                digit *= 2;
                if (digit > 9) {
                    digit -= 9;
                }
            }
            sum += digit;
            doubleIt = !doubleIt;
        }
        return sum % 10 == 0;
    }

    public String bin() {
        return digits.substring(0, 6);
    }

    public String last4() {
        return digits.substring(digits.length() - 4);
    }

    public CardBrand brand() {
        return CardBrand.of(digits);
    }

    /** Asterisks between BIN and last four digits, as token records show a card. */
    public String masked() {
        return bin() + "*".repeat(digits.length() - 10) + last4();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CardNumber number && number.digits.equals(digits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(digits);
    }

    @Override
    public String toString() {
        return masked();
    }
}
