package io.paysession.webhook.delivery;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The dispatcher's side of the outbox: claims and attempt results. Every change to a claimed row
 * checks that this node still holds the claim, so a node whose lease ran out cannot overwrite the
 * result of the node that took over.
 */
@Component
public class DeliveryStore {

    /*
     * Due, unclaimed (or lease expired), with a known endpoint, and with no earlier pending notification
     * of the same session: per session strictly in event order, while parked and delivered ones do not
     * block. SKIP LOCKED lets nodes claiming at the same time take different rows instead of waiting.
     */
    private static final String CLAIM = """
            UPDATE webhook_notification n
               SET claimed_until = ?, claimed_by = ?
              FROM (SELECT c.id, e.url
                      FROM webhook_notification c
                      JOIN webhook_endpoint e ON e.project = c.project
                     WHERE c.state = 'PENDING'
                       AND c.next_attempt_at <= ?
                       AND (c.claimed_until IS NULL OR c.claimed_until < ?)
                       AND c.project <> ALL (?)
                       AND NOT EXISTS (SELECT 1
                                         FROM webhook_notification earlier
                                        WHERE earlier.session_id = c.session_id
                                          AND earlier.state = 'PENDING'
                                          AND earlier.session_sequence < c.session_sequence)
                     ORDER BY c.next_attempt_at
                     LIMIT ?
                       FOR UPDATE OF c SKIP LOCKED) due
             WHERE n.id = due.id
            RETURNING n.id, n.session_id, n.project, n.type, n.body, n.attempts, n.window_started_at, n.redeliveries,
                      (SELECT count(*) FROM webhook_attempt a
                        WHERE a.notification_id = n.id AND a.redelivery = n.redeliveries) AS attempts_in_window,
                      due.url
            """;

    // Numbered here rather than from the claim: an attempt that lost its claim still gets a number of its own.
    private static final String NEXT_ATTEMPT_NUMBER = """
            UPDATE webhook_notification SET attempts = attempts + 1 WHERE id = ? RETURNING attempts
            """;

    private static final String DELIVERED = """
            UPDATE webhook_notification
               SET state = 'DELIVERED', delivered_at = ?, last_error = NULL,
                   claimed_until = NULL, claimed_by = NULL
             WHERE id = ? AND claimed_by = ? AND redeliveries = ?
            """;

    private static final String FAILED = """
            UPDATE webhook_notification
               SET state = ?, next_attempt_at = ?, last_error = ?,
                   claimed_until = NULL, claimed_by = NULL
             WHERE id = ? AND claimed_by = ? AND redeliveries = ?
            """;

    private static final String RELEASE = """
            UPDATE webhook_notification SET claimed_until = NULL, claimed_by = NULL
             WHERE id = ? AND claimed_by = ?
            """;

    // Only rows nobody holds; the window has ended when it started a whole retry window ago.
    private static final String PARK_UNSENT = """
            UPDATE webhook_notification
               SET state = 'PARKED', last_error = ?
             WHERE state = 'PENDING'
               AND project = ANY (?)
               AND next_attempt_at <= ?
               AND window_started_at <= ?
               AND (claimed_until IS NULL OR claimed_until < ?)
            RETURNING id, session_id, project, type
            """;

    private static final String ATTEMPT = """
            INSERT INTO webhook_attempt (notification_id, attempt_number, attempted_at, http_status, latency_ms, error,
                                         redelivery)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """;

    private static final RowMapper<ClaimedNotification> CLAIMED = (rs, row) -> new ClaimedNotification(
            rs.getObject("id", UUID.class),
            rs.getString("session_id"),
            rs.getString("project"),
            rs.getString("type"),
            rs.getString("body"),
            rs.getInt("attempts"),
            rs.getInt("attempts_in_window"),
            rs.getObject("window_started_at", OffsetDateTime.class).toInstant(),
            rs.getInt("redeliveries"),
            rs.getString("url"));

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    public DeliveryStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactionManager);
    }

    /**
     * The sandbox's time travel (docs/sandbox.md): the pending notifications of {@code sessionId} are retried
     * {@code by} earlier (an overdue one at {@code now}) and their retry window ends {@code by} earlier; how many.
     */
    public int bringRetriesEarlier(String sessionId, Duration by, Instant now) {
        return jdbc.update("""
                        UPDATE webhook_notification
                           SET next_attempt_at = greatest(next_attempt_at - (? * interval '1 millisecond'), ?),
                               window_started_at = window_started_at - (? * interval '1 millisecond')
                         WHERE session_id = ? AND state = 'PENDING'""",
                by.toMillis(), utc(now), by.toMillis(), sessionId);
    }

    /**
     * Claims up to {@code limit} due notifications for {@code node} until {@code leaseUntil}, leaving out
     * those of {@code skippedProjects}. One statement, so the claim is atomic without a transaction.
     */
    public List<ClaimedNotification> claim(String node, int limit, Collection<String> skippedProjects,
                                           Instant now, Instant leaseUntil) {
        return jdbc.query(connection -> {
            PreparedStatement statement = connection.prepareStatement(CLAIM);
            statement.setObject(1, utc(leaseUntil));
            statement.setString(2, node);
            statement.setObject(3, utc(now));
            statement.setObject(4, utc(now));
            statement.setArray(5, connection.createArrayOf("varchar", skippedProjects.toArray()));
            statement.setInt(6, limit);
            return statement;
        }, CLAIMED);
    }

    /** How recording an attempt went: its number, and whether it settled the notification's state. */
    public record Recorded(int attemptNumber, boolean settled) {
    }

    /**
     * Records a delivering attempt. Not settled when an operator redelivered the notification while the
     * attempt ran: the attempt is recorded, the claim given back, and the notification is sent again.
     */
    public Recorded recordDelivered(ClaimedNotification notification, String node, Instant attemptedAt,
                                    AttemptResult result, Instant deliveredAt) {
        return transaction.execute(status -> {
            int number = insertAttempt(notification, attemptedAt, result);
            return settledOrReleased(notification, node, number, jdbc.update(DELIVERED,
                    utc(deliveredAt), notification.id(), node, notification.redeliveries()));
        });
    }

    /** Records a failed attempt and what follows from it; not settled as for {@link #recordDelivered}. */
    public Recorded recordFailure(ClaimedNotification notification, String node, Instant attemptedAt,
                                  AttemptResult result, RetryPolicy.Decision decision, Instant now) {
        boolean park = decision instanceof RetryPolicy.Park;
        Instant next = decision instanceof RetryPolicy.RetryAt retry ? retry.at() : now;
        return transaction.execute(status -> {
            int number = insertAttempt(notification, attemptedAt, result);
            return settledOrReleased(notification, node, number, jdbc.update(FAILED, park ? "PARKED" : "PENDING",
                    utc(next), result.error(), notification.id(), node, notification.redeliveries()));
        });
    }

    private Recorded settledOrReleased(ClaimedNotification notification, String node, int number, int updated) {
        if (updated == 0) {
            // A redelivery came in meanwhile (or the lease was lost): the row keeps what that set.
            jdbc.update(RELEASE, notification.id(), node);
        }
        return new Recorded(number, updated > 0);
    }

    /** A notification parked without a last attempt. */
    public record Parked(UUID id, String sessionId, String project, String type) {
    }

    /**
     * Parks the due, unclaimed notifications of {@code projects} whose retry window opened at or before
     * {@code windowStartedBy}, with {@code reason} as their last error; no attempt is recorded, none was made.
     */
    public List<Parked> parkUnsent(Collection<String> projects, Instant windowStartedBy, Instant now, String reason) {
        return jdbc.query(connection -> {
            PreparedStatement statement = connection.prepareStatement(PARK_UNSENT);
            statement.setString(1, reason);
            statement.setArray(2, connection.createArrayOf("varchar", projects.toArray()));
            statement.setObject(3, utc(now));
            statement.setObject(4, utc(windowStartedBy));
            statement.setObject(5, utc(now));
            return statement;
        }, (rs, row) -> new Parked(rs.getObject("id", UUID.class), rs.getString("session_id"), rs.getString("project"),
                rs.getString("type")));
    }

    /**
     * Extends this node's claims on {@code ids} (the notifications it is sending) to {@code leaseUntil}; a claim
     * another node took meanwhile (the lease had run out) is left alone. How many were extended.
     */
    public int extendClaims(String node, Collection<UUID> ids, Instant leaseUntil) {
        if (ids.isEmpty()) {
            return 0;
        }
        return jdbc.update(connection -> {
            PreparedStatement statement = connection.prepareStatement(
                    "UPDATE webhook_notification SET claimed_until = ? WHERE claimed_by = ? AND id = ANY (?)");
            statement.setObject(1, utc(leaseUntil));
            statement.setString(2, node);
            statement.setArray(3, connection.createArrayOf("uuid", ids.toArray()));
            return statement;
        });
    }

    /** Gives a claimed notification back untried; it does not count as an attempt. */
    public void release(ClaimedNotification notification, String node) {
        jdbc.update(RELEASE, notification.id(), node);
    }

    private int insertAttempt(ClaimedNotification notification, Instant attemptedAt, AttemptResult result) {
        Integer number = jdbc.queryForObject(NEXT_ATTEMPT_NUMBER, Integer.class, notification.id());
        jdbc.update(ATTEMPT, notification.id(), number, utc(attemptedAt), result.httpStatus(),
                result.latencyMillis(), result.error(), notification.redeliveries());
        return number;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
