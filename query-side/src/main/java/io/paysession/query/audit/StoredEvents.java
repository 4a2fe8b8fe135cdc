package io.paysession.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.wire.PaymentJson;
import org.axonframework.messaging.MetaData;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The event store read as rows, in the store's own order (global index), with the payloads as stored and
 * as objects. Reads in pages, so a large store streams. A port: {@code JdbcStoredEvents} reads Axon's JDBC store's
 * table ({@code io.paysession.query.eventstore.jdbc}), {@code AxonStoredEvents} uses Axon's event store API only
 * ({@code io.paysession.query.eventstore.axon}, for Axon Server).
 */
public abstract class StoredEvents {

    /** How many events a page holds at most. */
    protected static final int PAGE = 1000;

    /**
     * One stored event; {@code globalIndex} is {@link #UNKNOWN_POSITION} where the store does not tell it (Axon
     * Server reads one aggregate's events without their positions).
     */
    public record StoredEvent(long globalIndex, String aggregateId, long sequence, String eventId, String timestamp,
                              String payloadType, String payloadRevision, byte[] payload, byte[] metaData) {

        public String simpleType() {
            return payloadType.substring(payloadType.lastIndexOf('.') + 1);
        }

        public boolean positionKnown() {
            return globalIndex != UNKNOWN_POSITION;
        }
    }

    public static final long UNKNOWN_POSITION = -1;

    private final Serializer serializer;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    protected StoredEvents(Serializer serializer) {
        this.serializer = serializer;
    }

    /** The highest position in the store, -1 when it is empty. */
    public abstract long maxGlobalIndex();

    /** How many events the store holds up to {@code upTo} (positions may have gaps). */
    public abstract long count(long upTo);

    /** One aggregate's events in their order; whether their positions are known depends on the store. */
    public abstract List<StoredEvent> ofAggregate(String aggregateId);

    /** Every event up to {@code upTo}, in the store's order, a page (at most 1,000 events) at a time. */
    public abstract void forEachPage(long upTo, Consumer<List<StoredEvent>> consumer);

    /**
     * Every event up to {@code upTo}, session by session (each aggregate's events in their order, the aggregates in
     * the order of their ids), a page (at most 1,000 events) at a time: a reader that folds each session holds one
     * session at a time, not every session of the store. A session's events may be split over two pages.
     */
    public abstract void forEachPageByAggregate(long upTo, Consumer<List<StoredEvent>> consumer);

    /** Of {@code aggregateIds}, those whose first event (sequence 0) is at or below {@code upTo}. */
    public abstract Set<String> startedBy(Collection<String> aggregateIds, long upTo);

    /** Every event up to {@code upTo} (global index), in order. */
    public void forEach(long upTo, Consumer<StoredEvent> consumer) {
        forEachPage(upTo, page -> page.forEach(consumer));
    }

    public Object payload(StoredEvent event) {
        return serializer.deserialize(new SimpleSerializedObject<>(event.payload(), byte[].class,
                new SimpleSerializedType(event.payloadType(), event.payloadRevision())));
    }

    /** The payload as stored: personal data as the event serializer encrypted it (what the audit export hashes). */
    public JsonNode payloadJson(StoredEvent event) {
        return tree(event.payload());
    }

    /**
     * The payload as an operator reads it: as stored, except that encrypted personal data is shown decrypted, or
     * {@code "[erased]"} once its key was erased (docs/erasure.md).
     */
    public JsonNode readablePayloadJson(StoredEvent event) {
        if (!PersonalData.holdsEncrypted(event.payload())) {
            return tree(event.payload());
        }
        return json.valueToTree(payload(event));
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
}
