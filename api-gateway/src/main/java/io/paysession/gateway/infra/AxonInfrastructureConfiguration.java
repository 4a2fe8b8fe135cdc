package io.paysession.gateway.infra;

import io.paysession.api.wire.PaymentJson;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.serialization.RevisionResolver;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import java.time.Clock;

/**
 * Axon on plain JDBC (no JPA, no Hibernate): snake_case tables created by Flyway, and one Jackson
 * serializer with the engine's own JSON settings for events, tokens and everything else Axon stores.
 */
@Configuration
public class AxonInfrastructureConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @Primary
    Serializer serializer(RevisionResolver revisionResolver) {
        return JacksonSerializer.builder()
                .objectMapper(PaymentJson.newObjectMapper())
                .revisionResolver(revisionResolver)
                .build();
    }

    @Bean
    PersistenceExceptionResolver persistenceExceptionResolver() {
        return new UniqueViolations();
    }

    @Bean
    public EventSchema eventSchema() {
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

    @Bean
    public TokenSchema tokenSchema() {
        return TokenSchema.builder()
                .setTokenTable("token_entry")
                .setProcessorNameColumn("processor_name")
                .setSegmentColumn("segment")
                .setTokenColumn("token")
                .setTokenTypeColumn("token_type")
                .setTimestampColumn("timestamp")
                .setOwnerColumn("owner")
                .build();
    }
}
