package io.paysession.query.eventstore.jdbc;

import io.paysession.query.audit.StoredEvents;
import org.axonframework.serialization.Serializer;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@link StoredEvents} on Axon's JDBC store: its table read with SQL, the positions being the rows' global indexes.
 */
public class JdbcStoredEvents extends StoredEvents {

    private final JdbcTemplate jdbc;

    public JdbcStoredEvents(JdbcTemplate jdbc, Serializer serializer) {
        super(serializer);
        this.jdbc = jdbc;
    }

    @Override
    public long maxGlobalIndex() {
        Long max = jdbc.queryForObject("select max(global_index) from domain_event_entry", Long.class);
        return max == null ? -1 : max;
    }

    @Override
    public long count(long upTo) {
        Long count = jdbc.queryForObject("select count(*) from domain_event_entry where global_index <= ?", Long.class,
                upTo);
        return count == null ? 0 : count;
    }

    @Override
    public List<StoredEvent> ofAggregate(String aggregateId) {
        return jdbc.query("select * from domain_event_entry where aggregate_identifier = ? order by sequence_number",
                (row, index) -> read(row), aggregateId);
    }

    @Override
    public void forEachPage(long upTo, Consumer<List<StoredEvent>> consumer) {
        long after = -1;
        while (true) {
            List<StoredEvent> page = jdbc.query("select * from domain_event_entry where global_index > ? "
                    + "and global_index <= ? order by global_index limit " + PAGE, (row, index) -> read(row), after, upTo);
            consumer.accept(page);
            if (page.size() < PAGE) {
                return;
            }
            after = page.get(page.size() - 1).globalIndex();
        }
    }

    /** Read along the store's unique (aggregate, sequence) index. */
    @Override
    public void forEachPageByAggregate(long upTo, Consumer<List<StoredEvent>> consumer) {
        String afterAggregate = "";
        long afterSequence = -1;
        while (true) {
            List<StoredEvent> page = jdbc.query("select * from domain_event_entry"
                    + " where (aggregate_identifier, sequence_number) > (?, ?) and global_index <= ?"
                    + " order by aggregate_identifier, sequence_number limit " + PAGE, (row, index) -> read(row),
                    afterAggregate, afterSequence, upTo);
            consumer.accept(page);
            if (page.size() < PAGE) {
                return;
            }
            StoredEvent last = page.get(page.size() - 1);
            afterAggregate = last.aggregateId();
            afterSequence = last.sequence();
        }
    }

    @Override
    public Set<String> startedBy(Collection<String> aggregateIds, long upTo) {
        if (aggregateIds.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.queryForList("select aggregate_identifier from domain_event_entry"
                        + " where aggregate_identifier = any (?) and sequence_number = 0 and global_index <= ?",
                String.class, aggregateIds.toArray(new String[0]), upTo));
    }

    private static StoredEvent read(ResultSet row) throws SQLException {
        return new StoredEvent(row.getLong("global_index"), row.getString("aggregate_identifier"),
                row.getLong("sequence_number"), row.getString("event_identifier"), row.getString("time_stamp"),
                row.getString("payload_type"), row.getString("payload_revision"), row.getBytes("payload"),
                row.getBytes("meta_data"));
    }
}
