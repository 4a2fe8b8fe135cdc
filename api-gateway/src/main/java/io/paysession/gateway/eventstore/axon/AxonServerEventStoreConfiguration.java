package io.paysession.gateway.eventstore.axon;

import io.paysession.gateway.erasure.StoredPayloads;
import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Axon Server as event store and message bus ({@code axon.axonserver.enabled=true}, the {@code axonserver} profile):
 * Axon's auto-configuration connects to it and builds the event store, the command bus and the query bus; tokens,
 * deadlines (db-scheduler), read models, the vault and the outbox stay in PostgreSQL. The service's adapters here use
 * Axon's API only ({@link TrackingTokenPositions}; the read side's in {@code io.paysession.query.eventstore.axon}).
 */
@Configuration
@ConditionalOnProperty(name = EventPositions.AXON_SERVER_PROPERTY, havingValue = "true")
public class AxonServerEventStoreConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(AxonServerEventStoreConfiguration.class);

    AxonServerEventStoreConfiguration(@Value("${axon.axonserver.servers:}") String servers) {
        LOG.info("Events, commands and queries go through Axon Server at {}; tokens, deadlines, read models, vault "
                + "and outbox stay in PostgreSQL. The preload and the audit command line work on the JDBC store "
                + "only: use the admin API for the audit", servers);
    }

    @Bean
    StoredPayloads storedPayloads() {
        return new AxonServerStoredPayloads();
    }

    @Bean
    EventPositions eventPositions() {
        return new TrackingTokenPositions();
    }
}
