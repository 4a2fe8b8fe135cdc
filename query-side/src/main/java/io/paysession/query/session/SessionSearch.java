package io.paysession.query.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.wire.PaymentJson;
import io.paysession.api.session.view.SessionView;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The operator's search over the session views (docs/dashboard.md): by session id, partner, status, method and
 * creation time, newest first, a page at a time. The method is a payment's or a payout's method type as the view
 * stores it ({@code payment:card}, {@code payout:iban}, ...), looked up in the view's JSON.
 */
@Repository
public class SessionSearch {

    /** The methods one can search by, as {@code kind:type}. */
    public static final Set<String> METHODS = Set.of("payment:card", "payment:wallet", "payment:bank_app_pay",
            "payment:qr_app_pay", "payment:faster_payment_system", "payment:faster_payment_system_binding",
            "payment:recurrent", "payout:card", "payout:iban", "payout:faster_payment_system",
            "payout:faster_payment_system_verification");

    private final JdbcTemplate jdbc;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    public SessionSearch(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** What to look for; a {@code null} criterion matches everything. */
    public record Criteria(String sessionId, String project, String status, String method, Instant from,
                           Instant to) {
        public Criteria {
            if (method != null && !METHODS.contains(method)) {
                throw new IllegalArgumentException("unknown method " + method);
            }
        }
    }

    /** A page of views, newest first, and whether more match. */
    public record Page(List<SessionView> sessions, boolean hasMore) {
    }

    public Page search(Criteria criteria, int offset, int limit) {
        StringBuilder sql = new StringBuilder("select view from session_view where true");
        List<Object> arguments = new ArrayList<>();
        if (criteria.sessionId() != null) {
            sql.append(" and session_id = ?");
            arguments.add(criteria.sessionId());
        }
        if (criteria.project() != null) {
            sql.append(" and project = ?");
            arguments.add(criteria.project());
        }
        if (criteria.status() != null) {
            sql.append(" and status = ?");
            arguments.add(criteria.status());
        }
        if (criteria.from() != null) {
            sql.append(" and created_at >= ?");
            arguments.add(Timestamp.from(criteria.from()));
        }
        if (criteria.to() != null) {
            sql.append(" and created_at < ?");
            arguments.add(Timestamp.from(criteria.to()));
        }
        if (criteria.method() != null) {
            String[] parts = criteria.method().split(":", 2);
            String list = parts[0].equals("payment") ? "payments" : "payouts";
            sql.append(" and exists (select 1 from jsonb_array_elements(coalesce(view->'").append(list)
                    .append("', '[]'::jsonb)) operation where operation->'data'->'method'->>'type' = ?)");
            arguments.add(parts[1]);
        }
        sql.append(" order by created_at desc, session_id desc offset ? limit ?");
        arguments.add(offset);
        arguments.add(limit + 1);
        List<SessionView> found = jdbc.query(sql.toString(), (row, index) -> read(row.getString("view")),
                arguments.toArray());
        boolean more = found.size() > limit;
        return new Page(more ? found.subList(0, limit) : found, more);
    }

    /** Sessions started, and sessions that reached {@code accepted} or {@code cancelled}, in one minute. */
    public record Minute(Instant minute, long started, long finished) {
    }

    /**
     * The last {@code minutes} minutes up to the current one, oldest first, empty minutes included. A session counts
     * as started in the minute of its {@code created_at} and as finished in the minute of its last change if that
     * left it {@code accepted} or {@code cancelled} (a later refund moves it to the refund's minute). Only sessions
     * created in the day before the window are looked at for the finished ones, so that the index on
     * {@code created_at} bounds the query: a session held longer (a delayed capture) is not counted when it ends.
     */
    public List<Minute> perMinute(Instant now, int minutes) {
        Instant last = now.truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        Instant first = last.minus(java.time.Duration.ofMinutes(minutes - 1L));
        java.util.Map<Instant, long[]> buckets = new java.util.TreeMap<>();
        for (Instant minute = first; !minute.isAfter(last); minute = minute.plus(java.time.Duration.ofMinutes(1))) {
            buckets.put(minute, new long[2]);
        }
        jdbc.query("select date_trunc('minute', created_at at time zone 'UTC') as minute, count(*) as n "
                + "from session_view where created_at >= ? group by 1", row -> {
            long[] bucket = buckets.get(utc(row.getTimestamp("minute")));
            if (bucket != null) {
                bucket[0] = row.getLong("n");
            }
        }, Timestamp.from(first));
        jdbc.query("select date_trunc('minute', updated_at at time zone 'UTC') as minute, count(*) as n "
                + "from session_view where created_at >= ? and updated_at >= ? and status in ('accepted', 'cancelled') "
                + "group by 1", row -> {
            long[] bucket = buckets.get(utc(row.getTimestamp("minute")));
            if (bucket != null) {
                bucket[1] = row.getLong("n");
            }
        }, Timestamp.from(first.minus(java.time.Duration.ofDays(1))), Timestamp.from(first));
        List<Minute> result = new ArrayList<>();
        buckets.forEach((minute, bucket) -> result.add(new Minute(minute, bucket[0], bucket[1])));
        return result;
    }

    private static Instant utc(Timestamp local) {
        return local.toLocalDateTime().toInstant(java.time.ZoneOffset.UTC);
    }

    /** The registered partners' projects, in order (the dashboard's choices). */
    public List<String> projects() {
        return jdbc.queryForList("select project from partner_directory order by project", String.class);
    }

    private SessionView read(String text) {
        try {
            return json.readValue(text, SessionView.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable session view", e);
        }
    }
}
