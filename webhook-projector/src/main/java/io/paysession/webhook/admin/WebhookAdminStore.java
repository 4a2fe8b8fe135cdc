package io.paysession.webhook.admin;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The operator's side of the outbox: reading notifications with their history, and making them due again. */
@Component
public class WebhookAdminStore {

    private static final String COLUMNS = """
            id, session_id, project, type, session_sequence, state, created_at, window_started_at,
            next_attempt_at, delivered_at, last_error, body
            """;

    private static final String ATTEMPTS = """
            SELECT notification_id, attempt_number, attempted_at, http_status, latency_ms, error, redelivery
              FROM webhook_attempt WHERE notification_id = ANY (?) ORDER BY notification_id, attempt_number
            """;

    private static final String REDELIVERIES = """
            SELECT notification_id, number, requested_at, requested_by, operation, previous_state
              FROM webhook_redelivery WHERE notification_id = ANY (?) ORDER BY notification_id, number
            """;

    /*
     * One statement: lock the chosen rows, make them due now in a fresh retry window, and write who asked
     * and what each row was before. A claim in flight is left alone: its result no longer settles the row
     * (the dispatcher compares redeliveries), so the notification is sent again after it.
     */
    private static final String REDELIVER = """
            WITH target AS (
                SELECT id, state FROM webhook_notification WHERE %s FOR UPDATE
            ), changed AS (
                UPDATE webhook_notification n
                   SET state = 'PENDING', next_attempt_at = ?, window_started_at = ?, redeliveries = n.redeliveries + 1
                  FROM target
                 WHERE n.id = target.id
                RETURNING n.id, n.redeliveries, target.state AS previous_state
            )
            INSERT INTO webhook_redelivery (notification_id, number, requested_at, requested_by, operation, previous_state)
            SELECT id, redeliveries, ?, ?, ?, CASE WHEN id = ANY (?) THEN NULL ELSE previous_state END FROM changed
            RETURNING notification_id
            """;

    private final JdbcTemplate jdbc;

    public WebhookAdminStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public NotificationPage list(NotificationFilter filter) {
        StringBuilder sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM webhook_notification WHERE true");
        List<Object> parameters = new ArrayList<>();
        if (filter.sessionId() != null) {
            sql.append(" AND session_id = ?");
            parameters.add(filter.sessionId());
        }
        if (filter.project() != null) {
            sql.append(" AND project = ?");
            parameters.add(filter.project());
        }
        if (filter.state() != null) {
            sql.append(" AND state = ?");
            parameters.add(filter.state().name());
        }
        if (filter.type() != null) {
            sql.append(" AND type = ?");
            parameters.add(filter.type());
        }
        if (filter.createdFrom() != null) {
            sql.append(" AND created_at >= ?");
            parameters.add(java.sql.Timestamp.from(filter.createdFrom()));
        }
        if (filter.createdTo() != null) {
            sql.append(" AND created_at < ?");
            parameters.add(java.sql.Timestamp.from(filter.createdTo()));
        }
        sql.append(filter.oldestFirst() ? " ORDER BY created_at, session_sequence, id LIMIT ?"
                : " ORDER BY created_at DESC, session_sequence DESC, id LIMIT ?");
        parameters.add(filter.limit() + 1);
        List<Row> rows = jdbc.query(sql.toString(), ROW, parameters.toArray());
        boolean hasMore = rows.size() > filter.limit();
        return new NotificationPage(withHistory(hasMore ? rows.subList(0, filter.limit()) : rows), hasMore);
    }

    public Optional<NotificationRecord> find(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM webhook_notification WHERE id = ?", ROW, id)
                .stream().findFirst().map(row -> withHistory(List.of(row)).get(0));
    }

    /** The notifications of a session in event order. */
    public List<NotificationRecord> ofSession(String sessionId) {
        return withHistory(jdbc.query("SELECT " + COLUMNS + " FROM webhook_notification WHERE session_id = ?"
                + " ORDER BY session_sequence", ROW, sessionId));
    }

    public List<UUID> redeliver(UUID id, RedeliveryRequest request) {
        return redeliver("id = ?", List.of(id), List.of(), request);
    }

    public List<UUID> redeliverParked(String project, RedeliveryRequest request) {
        return redeliver("project = ? AND state = 'PARKED'", List.of(project), List.of(), request);
    }

    /** {@code restored}: those of {@code ids} that were just added again from the events, not redelivered. */
    public List<UUID> redeliver(Collection<UUID> ids, Collection<UUID> restored, RedeliveryRequest request) {
        return redeliver("id = ANY (?)", List.of(ids), restored, request);
    }

    private List<UUID> redeliver(String where, List<Object> whereParameters, Collection<UUID> restored,
                                 RedeliveryRequest request) {
        return jdbc.query(connection -> {
            PreparedStatement statement = connection.prepareStatement(REDELIVER.formatted(where));
            int index = 1;
            for (Object parameter : whereParameters) {
                statement.setObject(index++, parameter instanceof Collection<?> ids ? uuidArray(connection, ids) : parameter);
            }
            OffsetDateTime at = utc(request.requestedAt());
            statement.setObject(index++, at);
            statement.setObject(index++, at);
            statement.setObject(index++, at);
            statement.setString(index++, request.requestedBy());
            statement.setString(index++, request.operation().wireName());
            statement.setArray(index, uuidArray(connection, restored));
            return statement;
        }, (rs, n) -> rs.getObject(1, UUID.class));
    }

    private List<NotificationRecord> withHistory(List<Row> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        UUID[] ids = rows.stream().map(Row::id).toArray(UUID[]::new);
        Map<UUID, List<NotificationRecord.Attempt>> attempts = new HashMap<>();
        jdbc.query(connection -> arrayQuery(connection, ATTEMPTS, ids), (ResultSet rs) -> {
            attempts.computeIfAbsent(rs.getObject(1, UUID.class), id -> new ArrayList<>())
                    .add(new NotificationRecord.Attempt(rs.getInt(2), instant(rs, 3), (Integer) rs.getObject(4),
                            rs.getLong(5), rs.getString(6), rs.getInt(7)));
        });
        Map<UUID, List<NotificationRecord.Redelivery>> redeliveries = new HashMap<>();
        jdbc.query(connection -> arrayQuery(connection, REDELIVERIES, ids), (ResultSet rs) -> {
            String previous = rs.getString(6);
            redeliveries.computeIfAbsent(rs.getObject(1, UUID.class), id -> new ArrayList<>())
                    .add(new NotificationRecord.Redelivery(rs.getInt(2), instant(rs, 3), rs.getString(4),
                            RedeliveryOperation.fromWireName(rs.getString(5)),
                            previous == null ? null : NotificationState.valueOf(previous)));
        });
        return rows.stream().map(row -> row.toRecord(attempts.getOrDefault(row.id(), List.of()),
                redeliveries.getOrDefault(row.id(), List.of()))).toList();
    }

    private static PreparedStatement arrayQuery(Connection connection, String sql, UUID[] ids) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setArray(1, connection.createArrayOf("uuid", ids));
        return statement;
    }

    private static Array uuidArray(Connection connection, Collection<?> ids) throws SQLException {
        return connection.createArrayOf("uuid", ids.toArray());
    }

    private record Row(UUID id, String sessionId, String project, String type, long sessionSequence,
                       NotificationState state, Instant createdAt, Instant windowStartedAt, Instant nextAttemptAt,
                       Instant deliveredAt, String lastError, String body) {

        NotificationRecord toRecord(List<NotificationRecord.Attempt> attempts,
                                    List<NotificationRecord.Redelivery> redeliveries) {
            return new NotificationRecord(id, sessionId, project, type, sessionSequence, state, createdAt,
                    windowStartedAt, nextAttemptAt, deliveredAt, lastError, body, List.copyOf(attempts),
                    List.copyOf(redeliveries));
        }
    }

    private static final RowMapper<Row> ROW = (rs, n) -> new Row(
            rs.getObject("id", UUID.class),
            rs.getString("session_id"),
            rs.getString("project"),
            rs.getString("type"),
            rs.getLong("session_sequence"),
            NotificationState.valueOf(rs.getString("state")),
            instant(rs, "created_at"),
            instant(rs, "window_started_at"),
            instant(rs, "next_attempt_at"),
            instant(rs, "delivered_at"),
            rs.getString("last_error"),
            rs.getString("body"));

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
