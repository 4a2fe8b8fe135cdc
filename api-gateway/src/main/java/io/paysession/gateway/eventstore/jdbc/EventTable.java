package io.paysession.gateway.eventstore.jdbc;

import org.springframework.jdbc.core.JdbcTemplate;

import java.util.HashMap;
import java.util.Map;

/**
 * What the preload (which fills Axon's JDBC store through its storage engine, docs/benchmark.md) reads back of the
 * store's table: whether it is empty, its highest position, and the positions the engine gave the events it appended.
 */
public final class EventTable {

    private final JdbcTemplate jdbc;

    public EventTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public boolean isEmpty() {
        Long existing = jdbc.queryForObject("select count(*) from (select 1 from domain_event_entry limit 1) e",
                Long.class);
        return existing == null || existing == 0;
    }

    /** The highest position, 0 when the table is empty. */
    public long maxGlobalIndex() {
        Long max = jdbc.queryForObject("select coalesce(max(global_index), 0) from domain_event_entry", Long.class);
        return max == null ? 0 : max;
    }

    /** The position of each event after {@code position}, by event id. */
    public Map<String, Long> positionsAfter(long position) {
        Map<String, Long> positions = new HashMap<>();
        jdbc.query("select event_identifier, global_index from domain_event_entry where global_index > ?",
                row -> {
                    positions.put(row.getString(1), row.getLong(2));
                }, position);
        return positions;
    }
}
