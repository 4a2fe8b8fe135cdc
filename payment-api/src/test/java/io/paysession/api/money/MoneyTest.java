package io.paysession.api.money;

import org.junit.jupiter.api.Test;

import java.util.Currency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MoneyTest {

    @Test
    void currencyIsReadCaseInsensitivelyAndShownLowerCase() {
        Money lower = Money.of(10_000, "rub");

        assertThat(lower).isEqualTo(Money.of(10_000, "RUB")).isEqualTo(Money.of(10_000, "Rub"));
        assertThat(lower.currency()).isEqualTo(Currency.getInstance("RUB"));
        assertThat(lower.currencyCode()).isEqualTo("rub");
        assertThat(lower).hasToString("10000 rub");
    }

    @Test
    void unknownCurrencyIsRefused() {
        assertThatThrownBy(() -> Money.of(100, "eu")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Money.of(100, "xyz")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeAmountIsRefused() {
        assertThatThrownBy(() -> Money.of(-1, "eur")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Money(Long.MIN_VALUE, Currency.getInstance("EUR")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sumsAndDifferencesAreExactAndNeverNegative() {
        assertThat(Money.of(10_000, "eur").plus(Money.of(280, "EUR"))).isEqualTo(Money.of(10_280, "eur"));
        assertThat(Money.of(10_000, "eur").minus(Money.of(10_000, "eur"))).isEqualTo(Money.of(0, "eur"));
        assertThatThrownBy(() -> Money.of(100, "eur").minus(Money.of(101, "eur"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Money.of(Long.MAX_VALUE, "eur").plus(Money.of(1, "eur"))).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void differentCurrenciesAreNeverAdded() {
        assertThatThrownBy(() -> Money.of(100, "eur").plus(Money.of(100, "usd"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Money.of(100, "eur").minus(Money.of(1, "usd"))).isInstanceOf(IllegalArgumentException.class);
    }
}
