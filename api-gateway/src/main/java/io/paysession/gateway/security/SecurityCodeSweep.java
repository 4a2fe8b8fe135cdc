package io.paysession.gateway.security;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.paysession.command.session.SessionTimeLimits;
import io.paysession.command.vault.CardVault;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;
import java.time.Duration;

/**
 * Erases every security code older than the longest confirmation window plus a grace, whatever it was
 * stored for. The events that end a payment's use of its code erase it at once ({@code SecurityCodeEraser});
 * this catches the codes no event ends: a draft of {@code session/create} never started, a draft card replaced
 * by the card given at start, a code stored before the eraser existed. No payment can still need such a code:
 * a payment not confirmed within the window is cancelled. db-scheduler runs it on one node at a time.
 */
@Configuration
public class SecurityCodeSweep {

    private static final Logger log = LoggerFactory.getLogger(SecurityCodeSweep.class);

    @Bean
    RecurringTask<Void> securityCodeSweeper(CardVault vault, SessionTimeLimits limits,
                                            SecurityCodeSweepProperties properties, Clock clock) {
        Duration maxAge = maxAge(limits, properties);
        log.info("Security codes older than {} are erased every {}", maxAge, properties.interval());
        return Tasks.recurring("security-code-sweep", FixedDelay.of(properties.interval()))
                .execute((instance, context) -> {
                    int erased = vault.eraseSecurityCodesStoredBefore(clock.instant().minus(maxAge));
                    if (erased > 0) {
                        log.info("Erased {} security codes older than {}", erased, maxAge);
                    }
                });
    }

    /** The age from which no payment can still need its security code. */
    static Duration maxAge(SessionTimeLimits limits, SecurityCodeSweepProperties properties) {
        return limits.longestConfirmWindow().plus(properties.grace());
    }
}
