package io.paysession.webhook.notification;

import io.paysession.api.wire.WireFormat;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Writes notifications and partner endpoints. Runs inside the event processor's transaction when
 * there is one, so rows and token commit together.
 */
@Component
public class NotificationOutbox {

    private static final String INSERT_NOTIFICATION = insertInto("webhook_notification");

    private static final String UPSERT_ENDPOINT = """
            INSERT INTO webhook_endpoint (project, url, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (project) DO UPDATE SET url = EXCLUDED.url, updated_at = EXCLUDED.updated_at
            """;

    private static final NotificationsStored STORED = new NotificationsStored();

    private final JdbcTemplate jdbc;
    private final ApplicationEventPublisher events;
    private final Clock clock = Clock.systemUTC();

    public NotificationOutbox(JdbcTemplate jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * Adds the notification unless it is already there (the same event handled again); true if added. Its event's
     * position is the one it carries ({@code null}: unknown).
     */
    public boolean add(NewNotification notification) {
        int added = insert(jdbc, INSERT_NOTIFICATION, notification, clock);
        if (added > 0) {
            announceAfterCommit();
        }
        return added > 0;
    }

    /** The insert of a new notification into {@code table}, the outbox or a table made like it. */
    static String insertInto(String table) {
        return """
                INSERT INTO %s
                    (id, session_id, project, type, body, session_sequence, event_global_index,
                     state, attempts, next_attempt_at, created_at, window_started_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'PENDING', 0, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """.formatted(table);
    }

    /** Inserts a notification, pending and due now, with an {@link #insertInto} statement; the rows added. */
    static int insert(JdbcTemplate jdbc, String insert, NewNotification notification, Clock clock) {
        OffsetDateTime now = utc(WireFormat.now(clock));
        return jdbc.update(insert,
                notification.id(),
                notification.sessionId(),
                notification.project(),
                notification.type().wireName(),
                notification.body(),
                notification.sessionSequence(),
                notification.eventGlobalIndex(),
                now,
                now,
                now);
    }

    /**
     * Inserts notifications whose positions are known, pending and due now, with an {@link #insertInto} statement,
     * in one JDBC batch (a rebuild's page).
     */
    static void insertAll(JdbcTemplate jdbc, String insert, List<NewNotification> notifications, Clock clock) {
        if (notifications.isEmpty()) {
            return;
        }
        OffsetDateTime now = utc(WireFormat.now(clock));
        jdbc.batchUpdate(insert, notifications.stream().map(notification -> new Object[] {notification.id(),
                notification.sessionId(), notification.project(), notification.type().wireName(), notification.body(),
                notification.sessionSequence(), notification.eventGlobalIndex(), now, now, now}).toList());
    }

    /**
     * Replaces the body of a notification already in the outbox (its id, type and delivery state stay): an erasure's
     * re-derivation. A webhook not yet sent goes out erased; one already sent is not sent again.
     */
    public void replaceBody(NewNotification notification) {
        jdbc.update("UPDATE webhook_notification SET body = ? WHERE id = ?", notification.body(), notification.id());
    }

    public void saveEndpoint(String project, String url, Instant updatedAt) {
        jdbc.update(UPSERT_ENDPOINT, project, url, utc(updatedAt));
    }

    /** A dispatcher woken before the commit would find nothing yet, so the signal waits for the commit. */
    private void announceAfterCommit() {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    events.publishEvent(STORED);
                }
            });
        } else {
            events.publishEvent(STORED);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
