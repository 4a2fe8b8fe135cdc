package io.paysession.query.eventstore.axon;

import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.query.audit.StoredEvents;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@link StoredEvents} with Axon's event store API only, for Axon Server (and any store whose tracking tokens are
 * {@code GlobalSequenceTrackingToken}s, Axon's in-memory store included): the store is read as a stream from its
 * start, each event's position being its token's. Payloads and metadata are serialized again with the service's
 * serializer, as the JDBC store holds them.
 * <p>
 * What the API does not give costs more than on the JDBC store: a count or a set of started sessions reads the
 * stream up to the position; the sessions one after the other read the stream once for the positions (8 bytes an
 * event held) and then each session's events; and one aggregate's events ({@link #ofAggregate}) come without their
 * positions ({@link StoredEvents#UNKNOWN_POSITION}).
 */
public class AxonStoredEvents extends StoredEvents {

    private final EventStore eventStore;
    private final Serializer serializer;
    private final EventPositions positions = new TrackingTokenPositions();

    public AxonStoredEvents(EventStore eventStore, Serializer serializer) {
        super(serializer);
        this.eventStore = eventStore;
        this.serializer = serializer;
    }

    @Override
    public long maxGlobalIndex() {
        TrackingToken head = eventStore.createHeadToken();
        return head == null ? -1 : head.position().orElse(-1);
    }

    @Override
    public long count(long upTo) {
        long[] count = {0};
        stream(upTo, (message, position) -> count[0]++);
        return count[0];
    }

    @Override
    public List<StoredEvent> ofAggregate(String aggregateId) {
        List<StoredEvent> events = new ArrayList<>();
        eventStore.readEvents(aggregateId, 0L).forEachRemaining(message -> events.add(stored(message, UNKNOWN_POSITION)));
        return events;
    }

    @Override
    public void forEachPage(long upTo, Consumer<List<StoredEvent>> consumer) {
        List<StoredEvent> page = new ArrayList<>();
        stream(upTo, (message, position) -> {
            page.add(stored(message, position));
            if (page.size() == PAGE) {
                consumer.accept(List.copyOf(page));
                page.clear();
            }
        });
        consumer.accept(page);
    }

    /**
     * The positions of each aggregate's events first (one pass over the stream), then each aggregate's events in the
     * order of the ids, read by aggregate: within an aggregate the store's order is the sequence's, so its n-th event
     * is at its n-th position.
     */
    @Override
    public void forEachPageByAggregate(long upTo, Consumer<List<StoredEvent>> consumer) {
        Map<String, Positions> byAggregate = new TreeMap<>();
        stream(upTo, (message, position) -> {
            if (message instanceof DomainEventMessage<?> domain) {
                byAggregate.computeIfAbsent(domain.getAggregateIdentifier(), id -> new Positions()).add(position);
            }
        });
        List<StoredEvent> page = new ArrayList<>();
        byAggregate.forEach((aggregateId, known) -> {
            Iterator<? extends DomainEventMessage<?>> events = eventStore.readEvents(aggregateId, 0L).asStream().iterator();
            for (int index = 0; index < known.size() && events.hasNext(); index++) {
                page.add(stored(events.next(), known.get(index)));
                if (page.size() == PAGE) {
                    consumer.accept(List.copyOf(page));
                    page.clear();
                }
            }
        });
        consumer.accept(page);
    }

    @Override
    public Set<String> startedBy(Collection<String> aggregateIds, long upTo) {
        Set<String> wanted = new HashSet<>(aggregateIds);
        Set<String> started = new HashSet<>();
        if (wanted.isEmpty()) {
            return started;
        }
        stream(upTo, (message, position) -> {
            if (message instanceof DomainEventMessage<?> domain && domain.getSequenceNumber() == 0
                    && wanted.contains(domain.getAggregateIdentifier())) {
                started.add(domain.getAggregateIdentifier());
            }
        });
        return started;
    }

    private interface Visitor {
        void visit(TrackedEventMessage<?> message, long position);
    }

    /**
     * Every event from the store's start up to {@code upTo} or the head, whichever is lower: the head is the position
     * of the last event stored, so the stream always reaches it and never waits for events to come.
     */
    private void stream(long upTo, Visitor visitor) {
        long last = Math.min(upTo, maxGlobalIndex());
        if (last < 0) {
            return;
        }
        try (BlockingStream<TrackedEventMessage<?>> stream = eventStore.openStream(null)) {
            while (true) {
                TrackedEventMessage<?> message = stream.nextAvailable();
                long position = positions.positionOf(message).orElseThrow(() -> new IllegalStateException(
                        "the store's tokens give no position: " + message.trackingToken()));
                if (position > last) {
                    return;
                }
                visitor.visit(message, position);
                if (position == last) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the event store", e);
        }
    }

    private StoredEvent stored(EventMessage<?> message, long position) {
        SerializedObject<byte[]> payload = message.serializePayload(serializer, byte[].class);
        byte[] metaData = message.serializeMetaData(serializer, byte[].class).getData();
        String aggregateId = message.getIdentifier();
        long sequence = 0;
        if (message instanceof DomainEventMessage<?> domain) {
            aggregateId = domain.getAggregateIdentifier();
            sequence = domain.getSequenceNumber();
        }
        return new StoredEvent(position, aggregateId, sequence, message.getIdentifier(),
                DateTimeUtils.formatInstant(message.getTimestamp()), payload.getType().getName(),
                payload.getType().getRevision(), payload.getData(), metaData);
    }

    /** A growing list of positions, 8 bytes each. */
    private static final class Positions {

        private long[] values = new long[4];
        private int size;

        void add(long position) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = position;
        }

        int size() {
            return size;
        }

        long get(int index) {
            return values[index];
        }
    }
}
