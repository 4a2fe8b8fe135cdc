package io.paysession.webhook.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When to try a notification again after a failed attempt: the wait starts at the initial interval and
 * grows by the multiplier up to the maximum. Attempts go on until the retry window, counted from the
 * notification's creation (or from its last redelivery), is over; the last attempt falls at its end, and
 * a failure then parks it.
 */
public final class RetryPolicy {

    private final Duration initialInterval;
    private final double multiplier;
    private final Duration maxInterval;
    private final Duration window;

    public RetryPolicy(Duration initialInterval, double multiplier, Duration maxInterval, Duration window) {
        this.initialInterval = Objects.requireNonNull(initialInterval, "initialInterval");
        this.multiplier = multiplier;
        this.maxInterval = Objects.requireNonNull(maxInterval, "maxInterval");
        this.window = Objects.requireNonNull(window, "window");
    }

    public static RetryPolicy from(WebhookProperties properties) {
        return new RetryPolicy(properties.initialRetryInterval(), properties.retryMultiplier(),
                properties.maxRetryInterval(), properties.retryWindow());
    }

    /**
     * What to do after {@code attemptsMade} attempts (at least 1) of the window that opened at
     * {@code windowStart} all failed, the last one ending {@code now}.
     */
    public Decision afterFailedAttempt(int attemptsMade, Instant windowStart, Instant now) {
        Instant windowEnd = windowStart.plus(window);
        if (!now.isBefore(windowEnd)) {
            return new Park();
        }
        Instant next = now.plus(intervalAfter(attemptsMade));
        return new RetryAt(next.isAfter(windowEnd) ? windowEnd : next);
    }

    /** The wait after the {@code attemptsMade}-th failed attempt. */
    public Duration intervalAfter(int attemptsMade) {
        if (attemptsMade < 1) {
            throw new IllegalArgumentException("attemptsMade must be at least 1");
        }
        double millis = initialInterval.toMillis() * Math.pow(multiplier, attemptsMade - 1);
        return millis >= maxInterval.toMillis() ? maxInterval : Duration.ofMillis((long) millis);
    }

    public sealed interface Decision permits RetryAt, Park {
    }

    public record RetryAt(Instant at) implements Decision {
    }

    /** The retry window is over: the notification is dead until an operator redelivers it. */
    public record Park() implements Decision {
    }
}
