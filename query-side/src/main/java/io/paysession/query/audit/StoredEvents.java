package io.paysession.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.wire.PaymentJson;
import org.axonframework.messaging.MetaData;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * The event store read as rows, in the store's own order (global index), with the payloads as stored and
 * as objects. Reads in pages, so a large store streams.
 */
public class StoredEvents {

    private static final int PAGE = 1000;

    public record StoredEvent(long globalIndex, String aggregateId, long sequence, String eventId, String timestamp,
                              String payloadType, String payloadRevision, byte[] payload, byte[] metaData) {

        public String simpleType() {
            return payloadType.substring(payloadType.lastIndexOf('.') + 1);
        }
    }

    private final JdbcTemplate jdbc;
    private final Serializer serializer;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    public StoredEvents(JdbcTemplate jdbc, Serializer serializer) {
        this.jdbc = jdbc;
        this.serializer = serializer;
    }

    public long maxGlobalIndex() {
        Long max = jdbc.queryForObject("select max(global_index) from domain_event_entry", Long.class);
        return max == null ? -1 : max;
    }

    public long count(long upTo) {
        Long count = jdbc.queryForObject("select count(*) from domain_event_entry where global_index <= ?", Long.class,
                upTo);
        return count == null ? 0 : count;
    }

    public List<StoredEvent> ofAggregate(String aggregateId) {
        return jdbc.query("select * from domain_event_entry where aggregate_identifier = ? order by sequence_number",
                (row, index) -> read(row), aggregateId);
    }

    /** Every event up to {@code upTo} (global index), in order. */
    public void forEach(long upTo, Consumer<StoredEvent> consumer) {
        forEachPage(upTo, page -> page.forEach(consumer));
    }

    /** Every event up to {@code upTo}, in the store's order, a page (at most 1,000 events) at a time. */
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

    /**
     * Every event up to {@code upTo}, session by session (each aggregate's events in their order, the aggregates in
     * the order of their ids), a page (at most 1,000 events) at a time: a reader that folds each session holds one
     * session at a time, not every session of the store. Read along the store's unique (aggregate, sequence) index.
     */
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

    public Object payload(StoredEvent event) {
        return serializer.deserialize(new SimpleSerializedObject<>(event.payload(), byte[].class,
                new SimpleSerializedType(event.payloadType(), event.payloadRevision())));
    }

    public JsonNode payloadJson(StoredEvent event) {
        return tree(event.payload());
    }

    public MetaData metaData(StoredEvent event) {
        if (event.metaData() == null) {
            return MetaData.emptyInstance();
        }
        return serializer.deserialize(new SimpleSerializedObject<>(event.metaData(), byte[].class,
                new SimpleSerializedType(MetaData.class.getName(), null)));
    }

    private JsonNode tree(byte[] bytes) {
        try {
            return json.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StoredEvent read(java.sql.ResultSet row) throws java.sql.SQLException {
        return new StoredEvent(row.getLong("global_index"), row.getString("aggregate_identifier"),
                row.getLong("sequence_number"), row.getString("event_identifier"), row.getString("time_stamp"),
                row.getString("payload_type"), row.getString("payload_revision"), row.getBytes("payload"),
                row.getBytes("meta_data"));
    }
}
