package io.paysession.webhook.notification;

import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Notifications of sessions that finished before a bulk load of the store (the benchmark's {@code preload}): each
 * row as the dispatcher leaves a notification delivered at its first attempt (the outbox row {@code DELIVERED},
 * one attempt, answered 200, no claim left), with the columns {@link NotificationOutbox} writes for a new one.
 */
public final class DeliveredNotifications {

    private static final String INSERT_NOTIFICATION = """
            INSERT INTO webhook_notification
                (id, session_id, project, type, body, session_sequence, event_global_index,
                 state, attempts, next_attempt_at, created_at, window_started_at, delivered_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'DELIVERED', 1, ?, ?, ?, ?)
            """;

    private static final String INSERT_ATTEMPT = """
            INSERT INTO webhook_attempt (notification_id, attempt_number, attempted_at, http_status, latency_ms, error,
                                         redelivery)
            VALUES (?, 1, ?, 200, ?, NULL, 0)
            """;

    private DeliveredNotifications() {
    }

    /**
     * Writes {@code notification} stored at {@code storedAt}, sent at {@code attemptedAt} and answered after
     * {@code latencyMillis}.
     */
    public static void add(JdbcTemplate jdbc, NewNotification notification, Instant storedAt, Instant attemptedAt,
                           long latencyMillis) {
        OffsetDateTime stored = utc(storedAt);
        jdbc.update(INSERT_NOTIFICATION, notification.id(), notification.sessionId(), notification.project(),
                notification.type().wireName(), notification.body(), notification.sessionSequence(),
                notification.eventGlobalIndex(), stored, stored, stored, utc(attemptedAt.plusMillis(latencyMillis)));
        jdbc.update(INSERT_ATTEMPT, notification.id(), utc(attemptedAt), latencyMillis);
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
