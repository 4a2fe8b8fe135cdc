package io.paysession.api.session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdFormatTest {

    @ParameterizedTest
    @ValueSource(strings = {"ps_1", "ps_42", "ps_9223372036854775807"})
    void sessionIdAcceptsPsAndADecimalNumber(String text) {
        assertThat(SessionId.of(text).value()).isEqualTo(text);
        assertThat(SessionId.of(text)).hasToString(text);
        assertThat(SessionId.parse(text)).contains(SessionId.of(text));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"ps_0", "ps_", "ps_01", "PS_1", "x", "", "ps_-1", "ps_1 ", " ps_1", "ps_1a", "pm_1", "ps_12345678901234567890"})
    void sessionIdRefusesAnythingElse(String text) {
        assertThatThrownBy(() -> SessionId.of(text)).isInstanceOf(IllegalArgumentException.class);
        assertThat(SessionId.parse(text)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"pm_1", "pm_42", "pm_9223372036854775807"})
    void paymentIdAcceptsPmAndADecimalNumber(String text) {
        assertThat(PaymentId.of(text).value()).isEqualTo(text);
        assertThat(PaymentId.of(text)).hasToString(text);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"pm_0", "pm_", "pm_01", "PM_1", "x", "", "pm_-1", "ps_1", "pm_1.5"})
    void paymentIdRefusesAnythingElse(String text) {
        assertThatThrownBy(() -> PaymentId.of(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void idsFromTheDatabaseSequenceGetTheirPrefix() {
        assertThat(SessionId.of(7L)).isEqualTo(SessionId.of("ps_7"));
        assertThat(PaymentId.of(42L)).isEqualTo(PaymentId.of("pm_42"));
        assertThatThrownBy(() -> SessionId.of(0L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PaymentId.of(-5L)).isInstanceOf(IllegalArgumentException.class);
    }
}
