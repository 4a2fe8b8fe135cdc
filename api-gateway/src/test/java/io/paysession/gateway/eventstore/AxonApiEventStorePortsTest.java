package io.paysession.gateway.eventstore;

import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.query.eventstore.axon.AxonStoredEvents;
import io.paysession.query.eventstore.axon.AxonWalletBalances;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adapters that use Axon's event store API only (chosen with Axon Server) pass the contract, on Axon's in-memory
 * store: the same {@code EventStore} API and the same kind of tokens ({@code GlobalSequenceTrackingToken}) as Axon
 * Server's. Axon Server itself is not here (docs/scaling.md says what that leaves unverified).
 */
class AxonApiEventStorePortsTest extends EventStorePortsContract {

    @Override
    void openStore() {
        eventStore = EmbeddedEventStore.builder().storageEngine(new InMemoryEventStorageEngine()).build();
        positions = new TrackingTokenPositions();
        storedEvents = new AxonStoredEvents(eventStore, SERIALIZER);
        balances = new AxonWalletBalances(jdbc, eventStore);
    }

    @Override
    void closeStore() {
        ((EmbeddedEventStore) eventStore).shutDown();
    }

    @Test
    void anEventNotTrackedOrTrackedWithAnotherKindOfTokenHasNoPosition() {
        DomainEventMessage<?> event = append(Instant.parse("2026-11-27T10:00:00Z"), "ps_1").get(0);

        assertThat(positions.positionOf(event)).isEmpty();
        assertThat(positions.positionOf(new GenericTrackedDomainEventMessage<>(
                GapAwareTrackingToken.newInstance(9, Set.of(7L)), event))).isEmpty();
    }
}
