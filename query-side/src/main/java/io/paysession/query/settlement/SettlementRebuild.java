package io.paysession.query.settlement;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.api.projection.RebuildDifferences;
import io.paysession.api.projection.ReplayedEvent;
import io.paysession.api.settlement.SettlementRules;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The reconciliation read model rebuilt with {@link SettlementRules} into a {@link SettlementStore} of prefix
 * {@code settlement_rebuild} (tables made like the live ones), and compared entry by entry and failure by
 * failure up to the rebuild's position, once the live projection has reached it (waited for up to 30 s).
 */
public class SettlementRebuild implements ProjectionRebuild {

    private static final String PREFIX = "settlement_rebuild";
    private static final String[] TABLES = {"entry", "failure", "position"};
    private static final String ENTRY_COLUMNS = "entry_id, project, day, currency, method, operation, session_id, "
            + "operation_id, gross, fee, net, global_index";
    private static final String FAILURE_COLUMNS = "entry_id, project, day, method, operation, session_id, operation_id, "
            + "currency, amount, error_code, global_index";
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private final JdbcTemplate jdbc;
    private final SettlementStore rebuilt;
    private final SettlementStore live;
    private final List<SettlementRules.Derived> page = new ArrayList<>();
    private long highest = -1;

    public SettlementRebuild(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.rebuilt = new SettlementStore(jdbc, PREFIX);
        this.live = new SettlementStore(jdbc, "settlement");
    }

    @Override
    public String name() {
        return "settlement";
    }

    @Override
    public void dropFreshTables() {
        for (String table : TABLES) {
            jdbc.execute("drop table if exists " + PREFIX + "_" + table);
        }
    }

    @Override
    public void createFreshTables() {
        page.clear();
        highest = -1;
        for (String table : TABLES) {
            jdbc.execute("create table " + PREFIX + "_" + table + " (like settlement_" + table + " including all)");
        }
    }

    @Override
    public void apply(ReplayedEvent replayed) {
        SettlementRules.Derived derived = SettlementRules.derive(replayed.event(), replayed.before(), replayed.after(),
                replayed.eventId(), replayed.globalIndex());
        if (!derived.entries().isEmpty() || !derived.failures().isEmpty()) {
            page.add(derived);
        }
        highest = Math.max(highest, replayed.globalIndex());
    }

    /** The page's entries and failures in a batch each, and the highest position seen so far. */
    @Override
    public void endOfPage() {
        rebuilt.saveAll(page);
        page.clear();
        if (highest >= 0) {
            rebuilt.advanceTo(highest);
        }
    }

    @Override
    public Comparison compareWithLive(long position) {
        ProjectionRebuild.waitFor(CATCH_UP, () -> live.position() >= position);
        RebuildDifferences differences = new RebuildDifferences();
        differ(differences, "settlement entry", ENTRY_COLUMNS, "entry", position);
        differ(differences, "failed operation", FAILURE_COLUMNS, "failure", position);
        Long rows = jdbc.queryForObject("select count(*) from " + PREFIX + "_entry", Long.class);
        return new Comparison(rows == null ? 0 : rows, 0, differences.list());
    }

    private void differ(RebuildDifferences differences, String what, String columns, String table, long position) {
        String liveRows = "select " + columns + " from settlement_" + table + " where global_index <= " + position;
        String rebuiltRows = "select " + columns + " from " + PREFIX + "_" + table;
        differences.compareRows(what, jdbc.queryForList("(" + liveRows + ") except (" + rebuiltRows + ")"),
                jdbc.queryForList("(" + rebuiltRows + ") except (" + liveRows + ")"));
    }
}
