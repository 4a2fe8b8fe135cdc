package io.paysession.webhook.delivery;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.PreparedStatement;
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
            RETURNING n.id, n.session_id, n.project, n.type, n.body, n.attempts, n.created_at, due.url
            """;

    private static final String DELIVERED = """
            UPDATE webhook_notification
               SET state = 'DELIVERED', attempts = ?, delivered_at = ?, last_error = NULL,
                   claimed_until = NULL, claimed_by = NULL
             WHERE id = ? AND claimed_by = ?
            """;

    private static final String FAILED = """
            UPDATE webhook_notification
               SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?,
                   claimed_until = NULL, claimed_by = NULL
             WHERE id = ? AND claimed_by = ?
            """;

    private static final String RELEASE = """
            UPDATE webhook_notification SET claimed_until = NULL, claimed_by = NULL
             WHERE id = ? AND claimed_by = ?
            """;

    private static final String ATTEMPT = """
            INSERT INTO webhook_attempt (notification_id, attempt_number, attempted_at, http_status, latency_ms, error)
            VALUES (?, ?, ?, ?, ?, ?)
            """;

    private static final RowMapper<ClaimedNotification> CLAIMED = (rs, row) -> new ClaimedNotification(
            rs.getObject("id", UUID.class),
            rs.getString("session_id"),
            rs.getString("project"),
            rs.getString("type"),
            rs.getString("body"),
            rs.getInt("attempts"),
            rs.getObject("created_at", OffsetDateTime.class).toInstant(),
            rs.getString("url"));

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    public DeliveryStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactionManager);
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

    public void recordDelivered(ClaimedNotification notification, String node, Instant attemptedAt,
                                AttemptResult result, Instant deliveredAt) {
        int attempt = notification.attemptsMade() + 1;
        transaction.executeWithoutResult(status -> {
            jdbc.update(DELIVERED, attempt, utc(deliveredAt), notification.id(), node);
            insertAttempt(notification, attempt, attemptedAt, result);
        });
    }

    public void recordFailure(ClaimedNotification notification, String node, Instant attemptedAt,
                              AttemptResult result, RetryPolicy.Decision decision, Instant now) {
        int attempt = notification.attemptsMade() + 1;
        boolean park = decision instanceof RetryPolicy.Park;
        Instant next = decision instanceof RetryPolicy.RetryAt retry ? retry.at() : now;
        transaction.executeWithoutResult(status -> {
            jdbc.update(FAILED, park ? "PARKED" : "PENDING", attempt, utc(next), result.error(),
                    notification.id(), node);
            insertAttempt(notification, attempt, attemptedAt, result);
        });
    }

    /** Gives a claimed notification back untried; it does not count as an attempt. */
    public void release(ClaimedNotification notification, String node) {
        jdbc.update(RELEASE, notification.id(), node);
    }

    private void insertAttempt(ClaimedNotification notification, int attempt, Instant attemptedAt, AttemptResult result) {
        jdbc.update(ATTEMPT, notification.id(), attempt, utc(attemptedAt), result.httpStatus(),
                result.latencyMillis(), result.error());
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
