package io.paysession.gateway.infra;

import io.paysession.api.wire.PaymentJson;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.serialization.RevisionResolver;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import java.time.Clock;

/**
 * Axon on plain JDBC (no JPA, no Hibernate): snake_case tables created by Flyway, and one Jackson
 * serializer with the engine's own JSON settings for events, tokens and everything else Axon stores. The tokens
 * stay in PostgreSQL whichever store holds the events; the event store itself is configured in
 * {@code io.paysession.gateway.eventstore} (Axon's JDBC store, or Axon Server).
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
