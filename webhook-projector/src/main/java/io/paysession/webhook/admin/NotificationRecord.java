package io.paysession.webhook.admin;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A notification as an operator sees it: its state, every attempt and every redelivery asked for.
 *
 * @param nextAttemptAt when it is due next; meaningful while pending
 * @param body          the exact JSON sent (card data in it is brand, BIN and last four digits only)
 */
public record NotificationRecord(UUID id,
                                 String sessionId,
                                 String project,
                                 String type,
                                 long sessionSequence,
                                 NotificationState state,
                                 Instant createdAt,
                                 Instant windowStartedAt,
                                 Instant nextAttemptAt,
                                 Instant deliveredAt,
                                 String lastError,
                                 String body,
                                 List<Attempt> attempts,
                                 List<Redelivery> redeliveries) {

    /**
     * One HTTP attempt. {@code httpStatus} is {@code null} when no answer came in time; {@code redelivery}
     * is 0 for the sends that followed the event, n for those after the n-th redelivery.
     */
    public record Attempt(int number, Instant attemptedAt, Integer httpStatus, long latencyMillis, String error,
                          int redelivery) {
    }

    /**
     * One request to send it again. {@code previousState} is {@code null} when the notification was not in
     * the outbox and a re-send derived it again from the session's events.
     */
    public record Redelivery(int number, Instant requestedAt, String requestedBy, RedeliveryOperation operation,
                             NotificationState previousState) {
    }
}
