package io.paysession.gateway.deadletter;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Poison events, {@code payments.dead-letters.*}.
 *
 * @param attempts         how often a streaming processor tries an event before it parks it (and every later event
 *                         of the same session) in its dead-letter queue; the attempts run one after the other on the
 *                         processor's thread, each in a savepoint of its transaction
 * @param firstRetryDelay  the wait before the second attempt; it doubles before each further one
 * @param maxSessions      how many sessions one processor may have parked; beyond it a failing event is retried
 *                         by the processor (blocking its segment) instead of being parked, as without the queue
 * @param maxPerSession    how many events of one session one processor may have parked, with the same limit
 * @param releaseInterval  how often events parked behind events that have since been handled are handled
 */
@ConfigurationProperties("payments.dead-letters")
public record DeadLetterProperties(@DefaultValue("3") int attempts,
                                   @DefaultValue("200ms") Duration firstRetryDelay,
                                   @DefaultValue("1024") int maxSessions,
                                   @DefaultValue("1024") int maxPerSession,
                                   @DefaultValue("1s") Duration releaseInterval) {

    public DeadLetterProperties {
        if (attempts < 1 || attempts > 10) {
            throw new IllegalArgumentException("payments.dead-letters.attempts must be from 1 to 10");
        }
        if (firstRetryDelay.isNegative() || firstRetryDelay.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("payments.dead-letters.first-retry-delay must be from 0 to 10s");
        }
        if (releaseInterval.compareTo(Duration.ofMillis(10)) < 0) {
            throw new IllegalArgumentException("payments.dead-letters.release-interval must be at least 10ms");
        }
        if (maxSessions < 1 || maxPerSession < 1) {
            throw new IllegalArgumentException("payments.dead-letters.max-sessions and max-per-session must be positive");
        }
    }
}
