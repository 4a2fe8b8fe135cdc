package io.paysession.api.money;

import java.util.Currency;
import java.util.Locale;
import java.util.Objects;

/** An amount in minor units of a currency. Never a double, never a BigDecimal built from one. */
public record Money(long minorUnits, Currency currency) {

    public Money {
        Objects.requireNonNull(currency, "currency");
        if (minorUnits < 0) {
            throw new IllegalArgumentException("amount must not be negative");
        }
    }

    public static Money of(long minorUnits, String currencyCode) {
        return new Money(minorUnits, Currency.getInstance(currencyCode.toUpperCase(Locale.ROOT)));
    }

    /** The ISO 4217 code in lower case, as responses show it. */
    public String currencyCode() {
        return currency.getCurrencyCode().toLowerCase(Locale.ROOT);
    }

    public boolean sameCurrencyAs(Money other) {
        return currency.equals(other.currency);
    }

    public Money plus(Money other) {
        requireSameCurrency(other);
        return new Money(Math.addExact(minorUnits, other.minorUnits), currency);
    }

    public Money minus(Money other) {
        requireSameCurrency(other);
        return new Money(Math.subtractExact(minorUnits, other.minorUnits), currency);
    }

    private void requireSameCurrency(Money other) {
        if (!sameCurrencyAs(other)) {
            throw new IllegalArgumentException("currency mismatch: " + currency + " and " + other.currency);
        }
    }

    @Override
    public String toString() {
        return minorUnits + " " + currencyCode();
    }
}
