package io.paysession.query.session;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.api.projection.RebuildDifferences;
import io.paysession.api.projection.ReplayedEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.query.audit.StoredEvents;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The session views rebuilt into {@code session_view_rebuild} (made like {@code session_view}) as the projection
 * makes them: the replay's fold ({@code SessionViewFold}, the projection's) and the projection's repository
 * ({@link JdbcSessionViewRepository}), each session's view written once per page of events (in one JDBC batch)
 * rather than read and written at each event. Compared row by row: a live row whose version moved past the rebuild
 * (the session went on during the replay) is counted as moved on, not as a difference.
 */
public class SessionViewsRebuild implements ProjectionRebuild {

    static final String TABLE = "session_view_rebuild";

    private final JdbcTemplate jdbc;
    private final StoredEvents events;
    private final JdbcSessionViewRepository views;
    /** The page's sessions as its events left them; written at the end of the page. */
    private final Map<String, SessionView> page = new LinkedHashMap<>();

    /** {@code events}: the store, which tells which live sessions not rebuilt had started by the replay's position. */
    public SessionViewsRebuild(JdbcTemplate jdbc, StoredEvents events) {
        this.jdbc = jdbc;
        this.events = events;
        this.views = new JdbcSessionViewRepository(jdbc, TABLE);
    }

    @Override
    public String name() {
        return "session-views";
    }

    @Override
    public void dropFreshTables() {
        jdbc.execute("drop table if exists " + TABLE);
    }

    @Override
    public void createFreshTables() {
        page.clear();
        jdbc.execute("create table " + TABLE + " (like session_view including all)");
    }

    @Override
    public void apply(ReplayedEvent replayed) {
        page.put(replayed.after().id(), replayed.after());
    }

    @Override
    public void endOfPage() {
        views.saveAll(page.values());
        page.clear();
    }

    @Override
    public Comparison compareWithLive(long position) {
        RebuildDifferences differences = new RebuildDifferences();
        long[] movedOn = {0};
        jdbc.query("""
                select r.session_id, l.session_id as live_id, r.version as rebuilt_version, l.version as live_version,
                       (l.view = r.view and l.status = r.status and l.project = r.project
                        and l.api_version = r.api_version) as same
                from session_view_rebuild r left join session_view l on l.session_id = r.session_id
                order by r.session_id""", row -> {
            String session = row.getString("session_id");
            if (row.getString("live_id") == null) {
                differences.add("session " + session + ": rebuilt but not in the live table");
            } else if (row.getLong("live_version") > row.getLong("rebuilt_version")) {
                movedOn[0]++;
            } else if (row.getLong("live_version") < row.getLong("rebuilt_version")) {
                differences.add("session " + session + ": live at version " + row.getLong("live_version")
                        + ", rebuilt at " + row.getLong("rebuilt_version"));
            } else if (!row.getBoolean("same")) {
                differences.add("session " + session + ": live view differs from the rebuilt one");
            }
        });
        List<String> notRebuilt = jdbc.queryForList("""
                select l.session_id from session_view l
                where not exists (select 1 from session_view_rebuild r where r.session_id = l.session_id)
                order by l.session_id""", String.class);
        Set<String> startedBefore = events.startedBy(notRebuilt, position);
        for (String session : notRebuilt) {
            if (startedBefore.contains(session)) {
                differences.add("session " + session + ": in the live table but not rebuilt");
            }
        }
        Long rows = jdbc.queryForObject("select count(*) from " + TABLE, Long.class);
        return new Comparison(rows == null ? 0 : rows, movedOn[0], differences.list());
    }
}
