package io.paysession.query.session;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.api.projection.RebuildDifferences;
import io.paysession.api.projection.ReplayedEvent;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The session views rebuilt by {@link SessionViewProjection} into {@code session_view_rebuild} (made like
 * {@code session_view}) and compared row by row: a live row whose version moved past the rebuild (the session
 * went on during the replay) is counted as moved on, not as a difference.
 */
public class SessionViewsRebuild implements ProjectionRebuild {

    static final String TABLE = "session_view_rebuild";

    private final JdbcTemplate jdbc;
    private final SessionViewProjection views;

    public SessionViewsRebuild(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.views = new SessionViewProjection(new JdbcSessionViewRepository(jdbc, TABLE));
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
        jdbc.execute("create table " + TABLE + " (like session_view including all)");
    }

    @Override
    public void apply(ReplayedEvent replayed) {
        views.on(replayed.event(), replayed.sequence());
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
        jdbc.query("""
                select l.session_id from session_view l
                where not exists (select 1 from session_view_rebuild r where r.session_id = l.session_id)
                  and exists (select 1 from domain_event_entry e where e.aggregate_identifier = l.session_id
                              and e.sequence_number = 0 and e.global_index <= ?)""",
                row -> {
                    differences.add("session " + row.getString(1) + ": in the live table but not rebuilt");
                }, position);
        Long rows = jdbc.queryForObject("select count(*) from " + TABLE, Long.class);
        return new Comparison(rows == null ? 0 : rows, movedOn[0], differences.list());
    }
}
