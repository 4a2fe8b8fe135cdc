package io.paysession.query.settlement;

import io.paysession.api.settlement.FailedOperation;
import io.paysession.api.settlement.SettlementEntry;
import io.paysession.api.settlement.SettlementRules;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Date;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.regex.Pattern;

/**
 * The reconciliation tables, under a name prefix: {@code settlement} for the live read model, another
 * prefix for a rebuild compared with it. Writes are idempotent (an entry is named after its event).
 */
public class SettlementStore {

    private static final Pattern PREFIX = Pattern.compile("[a-z_]{1,40}");

    private final JdbcTemplate jdbc;
    private final String prefix;

    public SettlementStore(JdbcTemplate jdbc, String prefix) {
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("bad table prefix " + prefix);
        }
        this.jdbc = jdbc;
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    public void save(SettlementRules.Derived derived) {
        saveAll(List.of(derived));
    }

    /** {@link #save} of each, the entries and the failures each sent as one JDBC batch. */
    public void saveAll(List<SettlementRules.Derived> derived) {
        List<Object[]> entries = new ArrayList<>();
        List<Object[]> failures = new ArrayList<>();
        for (SettlementRules.Derived one : derived) {
            for (SettlementEntry entry : one.entries()) {
                entries.add(new Object[] {entry.entryId(), entry.project(), Date.valueOf(entry.day()), entry.currency(),
                        entry.method(), entry.operation().wireName(), entry.sessionId(), entry.operationId(),
                        entry.gross(), entry.fee(), entry.net(), entry.globalIndex()});
            }
            for (FailedOperation failure : one.failures()) {
                failures.add(new Object[] {failure.entryId(), failure.project(), Date.valueOf(failure.day()),
                        failure.method(), failure.operation(), failure.sessionId(), failure.operationId(),
                        failure.currency(), failure.amount(), failure.errorCode(), failure.globalIndex()});
            }
        }
        write("insert into " + prefix + "_entry (entry_id, project, day, currency, method, operation, "
                + "session_id, operation_id, gross, fee, net, global_index) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                + "on conflict (entry_id) do nothing", entries);
        write("insert into " + prefix + "_failure (entry_id, project, day, method, operation, session_id, "
                + "operation_id, currency, amount, error_code, global_index) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                + "on conflict (entry_id) do nothing", failures);
    }

    private void write(String sql, List<Object[]> rows) {
        if (rows.size() == 1) {
            jdbc.update(sql, rows.get(0));
        } else if (!rows.isEmpty()) {
            jdbc.batchUpdate(sql, rows);
        }
    }

    public void advanceTo(long globalIndex) {
        jdbc.update("insert into " + prefix + "_position (id, global_index) values (1, ?) on conflict (id) do update "
                + "set global_index = greatest(" + prefix + "_position.global_index, excluded.global_index)", globalIndex);
    }

    /**
     * The live projection's position after an event: every position up to {@code covered} is handled, the
     * highest is {@code highest}, and {@code gaps} (all between the two) are missing, seen since they were first
     * recorded; a gap older than {@code gapTimeout} no longer holds the position back ({@link #giveUpGaps}).
     */
    public void advanceTo(long covered, long highest, SortedSet<Long> gaps, Duration gapTimeout) {
        Long[] missing = gaps.toArray(new Long[0]);
        jdbc.update("delete from " + prefix + "_gap where not (global_index = any (?))", (Object) missing);
        jdbc.update("insert into " + prefix + "_gap (global_index, seen_at) select unnest(?::bigint[]), now() "
                + "on conflict (global_index) do nothing", (Object) missing);
        jdbc.update("insert into " + prefix + "_position (id, global_index, token_index) values (1, ?, ?) "
                + "on conflict (id) do update set global_index = greatest(" + prefix + "_position.global_index, "
                + "excluded.global_index), token_index = greatest(" + prefix + "_position.token_index, "
                + "excluded.token_index)", covered, highest);
        giveUpGaps(gapTimeout);
    }

    /**
     * Moves the position past the gaps recorded longer than {@code gapTimeout} ago: the transactions that left
     * them will never commit (none runs that long), so every committed event up to the next younger gap, or
     * up to the highest position handled, is in the tables. Times are the database's, so nodes' clocks do not
     * matter. Called after each event and regularly, for the time no event arrives.
     */
    public void giveUpGaps(Duration gapTimeout) {
        jdbc.update("update " + prefix + "_position p set global_index = greatest(p.global_index, coalesce("
                + "(select min(g.global_index) - 1 from " + prefix + "_gap g "
                + "where g.seen_at > now() - ? * interval '1 millisecond'), p.token_index)) "
                + "where p.id = 1 and p.token_index is not null", gapTimeout.toMillis());
    }

    public long position() {
        List<Long> found = jdbc.queryForList("select global_index from " + prefix + "_position where id = 1", Long.class);
        return found.isEmpty() ? -1 : found.get(0);
    }

    public List<SettlementEntry> entries(String project, LocalDate from, LocalDate to) {
        return jdbc.query("select * from " + prefix + "_entry where project = ? and day between ? and ?",
                (row, index) -> new SettlementEntry(row.getString("entry_id"), row.getString("project"),
                        row.getDate("day").toLocalDate(), row.getString("currency"), row.getString("method"),
                        SettlementEntry.Operation.fromWireName(row.getString("operation")), row.getString("session_id"),
                        row.getString("operation_id"), row.getLong("gross"), row.getLong("fee"), row.getLong("net"),
                        row.getLong("global_index")),
                project, Date.valueOf(from), Date.valueOf(to));
    }

    public List<FailedOperation> failures(String project, LocalDate from, LocalDate to) {
        return jdbc.query("select * from " + prefix + "_failure where project = ? and day between ? and ?",
                (row, index) -> new FailedOperation(row.getString("entry_id"), row.getString("project"),
                        row.getDate("day").toLocalDate(), row.getString("method"), row.getString("operation"),
                        row.getString("session_id"), row.getString("operation_id"), row.getString("currency"),
                        (Long) row.getObject("amount"), row.getString("error_code"), row.getLong("global_index")),
                project, Date.valueOf(from), Date.valueOf(to));
    }
}
