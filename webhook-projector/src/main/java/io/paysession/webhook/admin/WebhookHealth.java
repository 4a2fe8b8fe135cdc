package io.paysession.webhook.admin;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Webhook delivery per partner for the operator's dashboard (docs/dashboard.md): attempts and their success over the
 * last hour and day, latency percentiles, what waits (pending) and what was given up (parked), and attempts per
 * hour over the last day.
 */
@Repository
public class WebhookHealth {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public WebhookHealth(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.clock = Clock.systemUTC();
    }

    /** One partner's figures; latencies in milliseconds, {@code null} without an attempt in the day. */
    public record PartnerHealth(String project, long attemptsHour, long succeededHour, long attemptsDay,
                                long succeededDay, Double medianLatency, Double p99Latency, long pending,
                                long parked) {
        public Double successRateDay() {
            return attemptsDay == 0 ? null : (double) succeededDay / attemptsDay;
        }
    }

    /** Attempts in one hour, all partners. */
    public record HourBucket(Instant hour, long attempts, long succeeded) {
    }

    public List<PartnerHealth> partners() {
        Instant now = clock.instant();
        Map<String, long[]> counts = new TreeMap<>();
        Map<String, Double[]> latencies = new TreeMap<>();
        jdbc.query("""
                select n.project,
                       count(*) filter (where a.attempted_at >= ?) as attempts_hour,
                       count(*) filter (where a.attempted_at >= ? and a.http_status between 200 and 299) as ok_hour,
                       count(*) as attempts_day,
                       count(*) filter (where a.http_status between 200 and 299) as ok_day,
                       percentile_cont(0.5) within group (order by a.latency_ms) as p50,
                       percentile_cont(0.99) within group (order by a.latency_ms) as p99
                from webhook_attempt a join webhook_notification n on n.id = a.notification_id
                where a.attempted_at >= ?
                group by n.project
                """, row -> {
            counts.put(row.getString("project"), new long[]{row.getLong("attempts_hour"), row.getLong("ok_hour"),
                    row.getLong("attempts_day"), row.getLong("ok_day"), 0, 0});
            latencies.put(row.getString("project"), new Double[]{row.getDouble("p50"), row.getDouble("p99")});
        }, Timestamp.from(now.minus(Duration.ofHours(1))), Timestamp.from(now.minus(Duration.ofHours(1))),
                Timestamp.from(now.minus(Duration.ofDays(1))));
        jdbc.query("""
                select project, count(*) filter (where state = 'PENDING') as pending,
                       count(*) filter (where state = 'PARKED') as parked
                from webhook_notification where state in ('PENDING', 'PARKED') group by project
                """, row -> {
            long[] figures = counts.computeIfAbsent(row.getString("project"), project -> new long[6]);
            figures[4] = row.getLong("pending");
            figures[5] = row.getLong("parked");
        });
        List<PartnerHealth> partners = new ArrayList<>();
        counts.forEach((project, figures) -> {
            Double[] latency = latencies.get(project);
            partners.add(new PartnerHealth(project, figures[0], figures[1], figures[2], figures[3],
                    latency == null ? null : latency[0], latency == null ? null : latency[1], figures[4], figures[5]));
        });
        return partners;
    }

    /** The last 24 hours, an entry per hour (empty hours included), oldest first. */
    public List<HourBucket> hours() {
        Instant last = clock.instant().truncatedTo(ChronoUnit.HOURS);
        Instant first = last.minus(Duration.ofHours(23));
        Map<Instant, long[]> buckets = new TreeMap<>();
        for (Instant hour = first; !hour.isAfter(last); hour = hour.plus(Duration.ofHours(1))) {
            buckets.put(hour, new long[2]);
        }
        jdbc.query("""
                select date_trunc('hour', attempted_at at time zone 'UTC') as hour, count(*) as attempts,
                       count(*) filter (where http_status between 200 and 299) as ok
                from webhook_attempt where attempted_at >= ? group by 1
                """, row -> {
            Instant hour = row.getTimestamp("hour").toLocalDateTime().toInstant(java.time.ZoneOffset.UTC);
            long[] bucket = buckets.get(hour);
            if (bucket != null) {
                bucket[0] = row.getLong("attempts");
                bucket[1] = row.getLong("ok");
            }
        }, Timestamp.from(first));
        List<HourBucket> hours = new ArrayList<>();
        buckets.forEach((hour, bucket) -> hours.add(new HourBucket(hour, bucket[0], bucket[1])));
        return hours;
    }
}
