package io.paysession.gateway.security;

import io.paysession.command.session.SessionTimeLimits;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The sweeper's age limit follows the configured confirmation windows, whichever is longer, plus the grace. */
class SecurityCodeSweepTest {

    @Test
    void theAgeLimitIsTheLongestConfirmationWindowPlusTheGrace() {
        SecurityCodeSweepProperties sweep = new SecurityCodeSweepProperties(Duration.ofMinutes(1), Duration.ofMinutes(15));

        assertThat(SecurityCodeSweep.maxAge(SessionTimeLimits.defaults(), sweep))
                .as("240 min for cards, 20 for QR applications").isEqualTo(Duration.ofMinutes(255));
        assertThat(SecurityCodeSweep.maxAge(limits(Duration.ofMinutes(30), Duration.ofMinutes(90)), sweep))
                .as("a QR window configured longer than the card window").isEqualTo(Duration.ofMinutes(105));
        assertThat(SecurityCodeSweep.maxAge(limits(Duration.ofSeconds(60), Duration.ofSeconds(3)),
                new SecurityCodeSweepProperties(Duration.ofSeconds(1), Duration.ZERO))).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aSweepThatNeverRunsOrANegativeGraceIsRefusedAtStart() {
        assertThatThrownBy(() -> new SecurityCodeSweepProperties(Duration.ZERO, Duration.ofMinutes(15)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SecurityCodeSweepProperties(Duration.ofMinutes(1), Duration.ofMinutes(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static SessionTimeLimits limits(Duration confirm, Duration qrAppConfirm) {
        SessionTimeLimits defaults = SessionTimeLimits.defaults();
        return new SessionTimeLimits(confirm, qrAppConfirm, defaults.payerAction(), defaults.walletAndBankAppPayerAction(),
                defaults.capture(), defaults.firstOutcomeQuery(), defaults.maxOutcomeQueryInterval(),
                defaults.outcomeQueriesBeforeError());
    }
}
