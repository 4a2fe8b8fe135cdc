package io.paysession.gateway.eventstore.jdbc;

import io.paysession.gateway.erasure.StoredPayloads;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.List;
import java.util.Optional;

/** {@link StoredPayloads} on Axon's JDBC store: its table. */
public final class JdbcStoredPayloads implements StoredPayloads {

    private final JdbcTemplate jdbc;

    public JdbcStoredPayloads(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<Stored> after(long position, long upTo, int limit) {
        return jdbc.query("""
                select global_index, aggregate_identifier, payload, payload_type, payload_revision from domain_event_entry
                 where global_index > ? and global_index <= ? order by global_index limit ?""",
                (row, index) -> new Stored(row.getLong(1), row.getString(2), row.getBytes(3), row.getString(4),
                        row.getString(5)), position, upTo, limit);
    }

    @Override
    public Optional<byte[]> firstPayloadOf(String aggregateId) {
        return jdbc.queryForList("select payload from domain_event_entry where aggregate_identifier = ? "
                + "and sequence_number = 0", byte[].class, aggregateId).stream().findFirst();
    }

    @Override
    public void rewrite(long position, byte[] payload) {
        jdbc.update("update domain_event_entry set payload = ? where global_index = ?", payload, position);
    }
}
