package io.paysession.gateway.audit;

import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import io.paysession.api.settlement.SettlementRules;
import io.paysession.query.session.JdbcSessionViewRepository;
import io.paysession.query.session.SessionViewProjection;
import io.paysession.query.settlement.SettlementStore;
import io.paysession.webhook.notification.NotificationDerivation;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Rebuilds projections from the event store into fresh tables, with the projections' own code, while the
 * service keeps serving; then compares them with the live tables. The rebuild covers the store up to the
 * position it started at: live rows that moved on since are not differences, and a live projection that
 * lags is waited for.
 */
public class ProjectionReplay {

    public enum Projection {
        SESSION_VIEWS("session-views"), SETTLEMENT("settlement"), WEBHOOKS("webhooks");

        private final String wireName;

        Projection(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Set<Projection> parse(String name) {
            if (name == null || name.equals("all")) {
                return EnumSet.allOf(Projection.class);
            }
            for (Projection projection : values()) {
                if (projection.wireName.equals(name)) {
                    return EnumSet.of(projection);
                }
            }
            throw new IllegalArgumentException("projection must be all, session-views, settlement or webhooks");
        }
    }

    public record Result(String projection, long position, long rows, long movedOn, List<String> differences) {
        public boolean identical() {
            return differences.isEmpty();
        }
    }

    /** Called about once a second while events are replayed. */
    public interface Progress {
        void report(long done, long total, Duration elapsed);
    }

    private static final int MAX_DIFFERENCES = 100;
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private final JdbcTemplate jdbc;
    private final StoredEvents events;

    public ProjectionReplay(JdbcTemplate jdbc, StoredEvents events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    public List<Result> run(Set<Projection> projections, Progress progress) {
        long position = events.maxGlobalIndex();
        long total = events.count(position);
        freshTables(projections);
        SessionViewProjection views = new SessionViewProjection(new JdbcSessionViewRepository(jdbc, "session_view_rebuild"));
        SettlementStore settlement = new SettlementStore(jdbc, "settlement_rebuild");
        Map<String, SessionView> folded = new HashMap<>();
        long started = System.nanoTime();
        long[] done = {0, started};
        events.forEach(position, stored -> {
            done[0]++;
            if (System.nanoTime() - done[1] > 1_000_000_000L) {
                done[1] = System.nanoTime();
                progress.report(done[0], total, Duration.ofNanos(done[1] - started));
            }
            if (!(events.payload(stored) instanceof SessionEvent event)) {
                return;
            }
            SessionView before = folded.get(stored.aggregateId());
            SessionView after = SessionViewFold.apply(before, event, stored.sequence());
            folded.put(stored.aggregateId(), after);
            if (projections.contains(Projection.SESSION_VIEWS)) {
                views.on(event, stored.sequence());
            }
            if (projections.contains(Projection.SETTLEMENT)) {
                settlement.save(SettlementRules.derive(event, before, after, stored.eventId(), stored.globalIndex()));
                settlement.advanceTo(stored.globalIndex());
            }
            if (projections.contains(Projection.WEBHOOKS)) {
                NotificationDerivation.derive(before, event, stored.eventId(), stored.sequence(), stored.globalIndex())
                        .ifPresent(notification -> jdbc.update("insert into webhook_notification_rebuild (id, session_id, "
                                        + "type, body, session_sequence, event_global_index) values (?, ?, ?, ?, ?, ?)",
                                notification.id(), notification.sessionId(), notification.type().wireName(),
                                notification.body(), notification.sessionSequence(), notification.eventGlobalIndex()));
            }
        });
        progress.report(done[0], total, Duration.ofNanos(System.nanoTime() - started));
        List<Result> results = new ArrayList<>();
        if (projections.contains(Projection.SESSION_VIEWS)) {
            results.add(compareSessionViews(position));
        }
        if (projections.contains(Projection.SETTLEMENT)) {
            results.add(compareSettlement(position));
        }
        if (projections.contains(Projection.WEBHOOKS)) {
            results.add(compareWebhooks(position));
        }
        return results;
    }

    private void freshTables(Set<Projection> projections) {
        if (projections.contains(Projection.SESSION_VIEWS)) {
            fresh("session_view_rebuild", "session_view");
        }
        if (projections.contains(Projection.SETTLEMENT)) {
            fresh("settlement_rebuild_entry", "settlement_entry");
            fresh("settlement_rebuild_failure", "settlement_failure");
            fresh("settlement_rebuild_position", "settlement_position");
        }
        if (projections.contains(Projection.WEBHOOKS)) {
            jdbc.execute("drop table if exists webhook_notification_rebuild");
            jdbc.execute("create table webhook_notification_rebuild (id uuid primary key, session_id varchar(32) not null, "
                    + "type varchar(32) not null, body text not null, session_sequence bigint not null, "
                    + "event_global_index bigint)");
        }
    }

    private void fresh(String table, String like) {
        jdbc.execute("drop table if exists " + table);
        jdbc.execute("create table " + table + " (like " + like + " including all)");
    }

    private Result compareSessionViews(long position) {
        List<String> differences = new ArrayList<>();
        long[] movedOn = {0};
        jdbc.query("""
                select r.session_id, l.session_id as live_id, r.version as rebuilt_version, l.version as live_version,
                       (l.view = r.view and l.status = r.status and l.project = r.project
                        and l.api_version = r.api_version) as same
                from session_view_rebuild r left join session_view l on l.session_id = r.session_id
                order by r.session_id""", row -> {
            String session = row.getString("session_id");
            if (row.getString("live_id") == null) {
                add(differences, "session " + session + ": rebuilt but not in the live table");
            } else if (row.getLong("live_version") > row.getLong("rebuilt_version")) {
                movedOn[0]++;
            } else if (row.getLong("live_version") < row.getLong("rebuilt_version")) {
                add(differences, "session " + session + ": live at version " + row.getLong("live_version")
                        + ", rebuilt at " + row.getLong("rebuilt_version"));
            } else if (!row.getBoolean("same")) {
                add(differences, "session " + session + ": live view differs from the rebuilt one");
            }
        });
        jdbc.query("""
                select l.session_id from session_view l
                where not exists (select 1 from session_view_rebuild r where r.session_id = l.session_id)
                  and exists (select 1 from domain_event_entry e where e.aggregate_identifier = l.session_id
                              and e.sequence_number = 0 and e.global_index <= ?)""",
                row -> {
                    add(differences, "session " + row.getString(1) + ": in the live table but not rebuilt");
                }, position);
        Long rows = jdbc.queryForObject("select count(*) from session_view_rebuild", Long.class);
        return new Result(Projection.SESSION_VIEWS.wireName(), position, rows == null ? 0 : rows, movedOn[0], differences);
    }

    private Result compareSettlement(long position) {
        awaitLiveSettlement(position);
        List<String> differences = new ArrayList<>();
        String entryColumns = "entry_id, project, day, currency, method, operation, session_id, operation_id, gross, fee, "
                + "net, global_index";
        differ(differences, "settlement entry", entryColumns, "settlement_entry", "settlement_rebuild_entry", position);
        String failureColumns = "entry_id, project, day, method, operation, session_id, operation_id, currency, amount, "
                + "error_code, global_index";
        differ(differences, "failed operation", failureColumns, "settlement_failure", "settlement_rebuild_failure",
                position);
        Long rows = jdbc.queryForObject("select count(*) from settlement_rebuild_entry", Long.class);
        return new Result(Projection.SETTLEMENT.wireName(), position, rows == null ? 0 : rows, 0, differences);
    }

    private Result compareWebhooks(long position) {
        List<String> differences = new ArrayList<>();
        String columns = "id, session_id, type, body, session_sequence, event_global_index";
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        do {
            differences.clear();
            differ(differences, "webhook", columns, "webhook_notification", "webhook_notification_rebuild", position);
        } while (!differences.isEmpty() && System.nanoTime() < deadline && pause());
        Long rows = jdbc.queryForObject("select count(*) from webhook_notification_rebuild", Long.class);
        return new Result(Projection.WEBHOOKS.wireName(), position, rows == null ? 0 : rows, 0, differences);
    }

    /**
     * Rows of one table up to {@code position} that the other does not hold, both ways; a row in both under
     * the same key but with other values is named once, with the columns that differ.
     */
    private void differ(List<String> differences, String what, String columns, String live, String rebuilt,
                        long position) {
        String liveRows = "select " + columns + " from " + live + " where " + positionOf(live) + " <= " + position;
        String rebuiltRows = "select " + columns + " from " + rebuilt;
        Map<String, Map<String, Object>> onlyLive = rows("(" + liveRows + ") except (" + rebuiltRows + ")");
        Map<String, Map<String, Object>> onlyRebuilt = rows("(" + rebuiltRows + ") except (" + liveRows + ")");
        onlyLive.forEach((key, row) -> {
            Map<String, Object> other = onlyRebuilt.remove(key);
            if (other == null) {
                add(differences, what + " " + key + ": in the live table, not in the rebuild");
            } else {
                List<String> differing = new ArrayList<>();
                row.forEach((column, value) -> {
                    if (!Objects.equals(value, other.get(column))) {
                        differing.add(column);
                    }
                });
                add(differences, what + " " + key + ": " + String.join(", ", differing)
                        + " differ between the live table and the rebuild");
            }
        });
        onlyRebuilt.keySet().forEach(key -> add(differences, what + " " + key + ": in the rebuild, not in the live table"));
    }

    private Map<String, Map<String, Object>> rows(String sql) {
        Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
        for (Map<String, Object> row : jdbc.queryForList(sql)) {
            rows.put(String.valueOf(row.values().iterator().next()), row);
        }
        return rows;
    }

    private static String positionOf(String table) {
        return table.startsWith("webhook") ? "event_global_index" : "global_index";
    }

    private void awaitLiveSettlement(long position) {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        while (System.nanoTime() < deadline) {
            List<Long> live = jdbc.queryForList("select global_index from settlement_position where id = 1", Long.class);
            if (!live.isEmpty() && live.get(0) >= position) {
                return;
            }
            pause();
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(200);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void add(List<String> differences, String difference) {
        if (differences.size() < MAX_DIFFERENCES) {
            differences.add(difference);
        }
    }
}
