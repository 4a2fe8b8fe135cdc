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

    /**
     * PCI DSS 3.4.1 and the PCI SSC's truncation FAQ 1091: never more than the first six and the last four, at
     * least 6 digits hidden from 16 digits up, at least 5 from 15; 12 to 14 digits keep 6 hidden as well.
     */
    @ParameterizedTest
    @CsvSource({
            "123456789012,        12******9012",
            "1234567890123,       123******0123",
            "12345678901234,      1234******1234",
            "123456789012345,     123456*****2345",
            "1234567890123456,    123456******3456",
            "12345678901234567,   123456*******4567",
            "123456789012345678,  123456********5678",
            "1234567890123456789, 123456*********6789"})
    void everyLengthShowsAtMostTheDigitsPciDssAllowsForIt(String digits, String masked) {
        CardNumber number = CardNumber.parse(digits).orElseThrow();
        int length = digits.length();
        int shown = number.bin().length() + number.last4().length();

        assertThat(number.masked()).isEqualTo(masked).hasSize(length);
        assertThat(number.toString()).isEqualTo(masked);
        assertThat(number.bin()).isEqualTo(digits.substring(0, number.bin().length()));
        assertThat(number.last4()).isEqualTo(digits.substring(length - 4));
        assertThat(shown).as("never more than the first six and the last four").isLessThanOrEqualTo(10);
        assertThat(number.bin().length()).isLessThanOrEqualTo(6);
        assertThat(length - shown).as("digits hidden").isGreaterThanOrEqualTo(length == 15 ? 5 : 6);
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
