package io.paysession.command.vault;

import java.util.Objects;
import java.util.Optional;

/**
 * A full card number. Its {@code toString} is masked, so that a number that reaches a log line or an
 * exception message by accident still shows only what PCI DSS allows to be shown ({@link #masked}). {@link #digits()} is the one
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

    /**
     * The leading digits that may be shown with the last four: the six of the BIN for numbers of 15 to 19 digits,
     * fewer for shorter ones ({@link #leadingDigitsShown}). Responses and events call it {@code bin}.
     */
    public String bin() {
        return digits.substring(0, leadingDigitsShown(digits.length()));
    }

    public String last4() {
        return digits.substring(digits.length() - 4);
    }

    /**
     * How many leading digits may be shown, with the last four, of a number of {@code length} digits. PCI DSS
     * 3.4.1 allows at most the BIN and the last four; the PCI SSC's truncation FAQ (1091) makes the first six and
     * last four the baseline for every length and asks at least 6 digits removed from 16-digit and longer numbers
     * and at least 5 from 15-digit ones. For 12 to 14 digits, where six and four would leave two to four digits
     * hidden, at least six stay hidden too, as for 16: 2, 3 and 4 leading digits.
     * <pre>
     * length   12 13 14 15 16 17 18 19
     * leading   2  3  4  6  6  6  6  6
     * hidden    6  6  6  5  6  7  8  9
     * </pre>
     */
    static int leadingDigitsShown(int length) {
        return length >= 15 ? 6 : length - 10;
    }

    public CardBrand brand() {
        return CardBrand.of(digits);
    }

    /** What may be shown ({@link #bin}, last four), with an asterisk for each hidden digit, as token records show a card. */
    public String masked() {
        return bin() + "*".repeat(digits.length() - bin().length() - 4) + last4();
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
