package io.paysession.gateway.eventstore;

import io.paysession.api.eventstore.jdbc.JdbcEventPositions;
import io.paysession.gateway.eventstore.jdbc.JdbcEventStoreConfiguration;
import io.paysession.gateway.eventstore.jdbc.UniqueViolations;
import io.paysession.query.eventstore.jdbc.JdbcStoredEvents;
import io.paysession.query.eventstore.jdbc.JdbcWalletBalances;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The JDBC store's adapters (the default) pass the contract, on Axon's JDBC storage engine as the service builds it. */
class JdbcEventStorePortsTest extends EventStorePortsContract {

    @Override
    void openStore() {
        ConnectionProvider connections = new SpringDataSourceConnectionProvider(database());
        eventStore = EmbeddedEventStore.builder().storageEngine(JdbcEventStorageEngine.builder()
                .connectionProvider(connections)
                .transactionManager(NoTransactionManager.INSTANCE)
                .schema(JdbcEventStoreConfiguration.eventSchema())
                .eventSerializer(SERIALIZER)
                .snapshotSerializer(SERIALIZER)
                .persistenceExceptionResolver(new UniqueViolations())
                .build()).build();
        positions = new JdbcEventPositions(connections, JdbcEventStoreConfiguration.eventSchema());
        storedEvents = new JdbcStoredEvents(jdbc, SERIALIZER);
        balances = new JdbcWalletBalances(jdbc);
    }

    @Override
    void closeStore() {
        ((EmbeddedEventStore) eventStore).shutDown();
    }

    @Test
    void anEventThatFillsAGapHasItsOwnPositionNotItsTokens() {
        DomainEventMessage<?> event = append(Instant.parse("2026-11-27T10:00:00Z"), "ps_1").get(0);
        long own = storedEvents.maxGlobalIndex();

        long position = positions.positionOf(new GenericTrackedDomainEventMessage<>(
                GapAwareTrackingToken.newInstance(own + 5, Set.of(own + 1)), event)).orElseThrow();

        assertThat(position).isEqualTo(own);
        assertThat(positions.positionOf(event)).as("a subscribing processor's event, not tracked").hasValue(own);
    }
}
