package io.paysession.command.vault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class CardNumberTest {

    @ParameterizedTest
    @CsvSource({
            "4242424242424242, visa",
            "5555555555554444, mastercard",
            "2221000000000009, mastercard",
            "2200000000000004, mir",
            "378282246310005, amex",
            "3530111333300000, jcb",
            "6200000000000005, unionpay"})
    void theBrandComesFromTheLeadingDigits(String digits, String brand) {
        CardNumber number = CardNumber.parse(digits).orElseThrow();
        assertThat(number.passesLuhnCheck()).isTrue();
        assertThat(number.brand().wireName()).isEqualTo(brand);
    }

    @ParameterizedTest
    @ValueSource(strings = {"4242424242424241", "4000000000000001", "5555555555554445"})
    void numbersFailingTheLuhnCheckAreRecognised(String digits) {
        assertThat(CardNumber.parse(digits).orElseThrow().passesLuhnCheck()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "42424242424", "42424242424242424242", "4242 4242 4242 4242", "424242424242424x", "４２４２４２４２４２４２４２４２"})
    void anythingButTwelveToNineteenAsciiDigitsIsNotACardNumber(String text) {
        assertThat(CardNumber.parse(text)).isEmpty();
    }

    @Test
    void printingACardNumberNeverShowsItWhole() {
        CardNumber number = CardNumber.parse("4242424242424242").orElseThrow();
        assertThat(number.toString()).isEqualTo("424242******4242");
        assertThat(number.bin()).isEqualTo("424242");
        assertThat(number.last4()).isEqualTo("4242");
        RevealedCard card = new RevealedCard(number, java.time.YearMonth.of(2034, 12), "987");
        assertThat(card.toString()).doesNotContain("4242424242424242").doesNotContain("987");
    }
}
