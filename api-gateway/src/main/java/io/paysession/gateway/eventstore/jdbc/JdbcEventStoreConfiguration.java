package io.paysession.gateway.eventstore.jdbc;

import io.paysession.gateway.erasure.StoredPayloads;
import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.eventstore.jdbc.JdbcEventPositions;
import io.paysession.gateway.infra.EventStoreGaps;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Axon's JDBC event store in PostgreSQL, the default ({@code axon.axonserver.enabled=false}): the snake_case tables
 * Flyway creates ({@code db/migration/infra}), Axon's {@link JdbcEventStorageEngine} with gaps given up in bounded
 * time ({@link EventStoreGaps}), a unique key violation read as a lost race ({@link UniqueViolations}), and the
 * service's adapters that read the table ({@link JdbcEventPositions}). This package and the {@code eventstore.jdbc}
 * packages of the modules are the only code that names the table ({@code ArchitectureTest}).
 * <p>
 * The schema is a bean on Axon Server too: it is only names, and with it Axon's own JDBC auto-configuration never
 * builds a storage engine of its own (with its default camelCase names) next to Axon Server's event store.
 */
@Configuration
public class JdbcEventStoreConfiguration {

    @Bean
    public static EventSchema eventSchema() {
        return EventSchema.builder()
                .eventTable("domain_event_entry")
                .snapshotTable("snapshot_event_entry")
                .globalIndexColumn("global_index")
                .timestampColumn("time_stamp")
                .eventIdentifierColumn("event_identifier")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .typeColumn("type")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .build();
    }

    /** The store itself and the adapters, unless Axon Server holds the events. */
    @Configuration
    @ConditionalOnProperty(name = EventPositions.AXON_SERVER_PROPERTY, havingValue = "false", matchIfMissing = true)
    static class OnTheJdbcStore {

        @Bean
        PersistenceExceptionResolver persistenceExceptionResolver() {
            return new UniqueViolations();
        }

        @Bean
        EventStorageEngine eventStorageEngine(Serializer defaultSerializer,
                                              PersistenceExceptionResolver persistenceExceptionResolver,
                                              @Qualifier("eventSerializer") Serializer eventSerializer,
                                              org.axonframework.config.Configuration configuration,
                                              ConnectionProvider connectionProvider,
                                              TransactionManager transactionManager,
                                              EventSchema eventSchema,
                                              EventStoreGaps.GapProperties gaps) {
            return JdbcEventStorageEngine.builder()
                    .snapshotSerializer(defaultSerializer)
                    .upcasterChain(configuration.upcasterChain())
                    .persistenceExceptionResolver(persistenceExceptionResolver)
                    .eventSerializer(eventSerializer)
                    .snapshotFilter(configuration.snapshotFilter())
                    .connectionProvider(connectionProvider)
                    .transactionManager(transactionManager)
                    .schema(eventSchema)
                    .gapTimeout((int) gaps.gapTimeout().toMillis())
                    .gapCleaningThreshold(gaps.gapCleaningThreshold())
                    .build();
        }

        @Bean
        StoredPayloads storedPayloads(org.springframework.jdbc.core.JdbcTemplate jdbc) {
            return new JdbcStoredPayloads(jdbc);
        }

        @Bean
        EventPositions eventPositions(ConnectionProvider connectionProvider, EventSchema eventSchema) {
            return new JdbcEventPositions(connectionProvider, eventSchema);
        }
    }
}
