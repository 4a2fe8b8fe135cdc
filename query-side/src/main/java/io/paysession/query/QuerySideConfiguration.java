package io.paysession.query;

import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.query.audit.ProjectionReplay;
import io.paysession.query.audit.Reconciliation;
import io.paysession.query.audit.SessionAudit;
import io.paysession.query.audit.StoredEvents;
import io.paysession.query.eventstore.axon.AxonStoredEvents;
import io.paysession.query.eventstore.axon.AxonWalletBalances;
import io.paysession.query.eventstore.jdbc.JdbcStoredEvents;
import io.paysession.query.eventstore.jdbc.JdbcWalletBalances;
import io.paysession.query.partner.PartnerDirectoryProjection;
import io.paysession.query.recurrent.RecurrentTokenProjection;
import io.paysession.query.settlement.SettlementProjection;
import io.paysession.query.session.SessionViewProjection;
import io.paysession.query.session.SessionViewsRebuild;
import io.paysession.query.settlement.SettlementRebuild;
import io.paysession.query.settlement.SettlementStore;
import io.paysession.query.settlement.WalletBalances;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.serialization.Serializer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.List;

/**
 * A projection that fails must fail the transaction it runs in, never log and skip: with subscribing
 * processors that rolls the command back, with streaming ones the event is retried. The module's projections
 * are also offered to the audit replay, each rebuilt by its own code ({@link ProjectionRebuild}); the audit
 * services over the event store and the read models are the read side's too.
 */
@Configuration
public class QuerySideConfiguration {

    @Bean
    ConfigurerModule querySideProcessing() {
        return configurer -> configurer.eventProcessing()
                .registerListenerInvocationErrorHandler(SessionViewProjection.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance())
                .registerListenerInvocationErrorHandler(PartnerDirectoryProjection.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance())
                .registerListenerInvocationErrorHandler(RecurrentTokenProjection.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance())
                .registerListenerInvocationErrorHandler(SettlementProjection.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance());
    }

    /** The event store's adapters on Axon's JDBC store (the default). */
    @Configuration
    @ConditionalOnProperty(name = EventPositions.AXON_SERVER_PROPERTY, havingValue = "false", matchIfMissing = true)
    static class OnTheJdbcStore {

        @Bean
        StoredEvents storedEvents(JdbcTemplate jdbc, @Qualifier("eventSerializer") Serializer serializer) {
            return new JdbcStoredEvents(jdbc, serializer);
        }

        @Bean
        WalletBalances walletBalances(JdbcTemplate jdbc) {
            return new JdbcWalletBalances(jdbc);
        }
    }

    /** The event store's adapters with Axon's event store API only, for Axon Server. */
    @Configuration
    @ConditionalOnProperty(name = EventPositions.AXON_SERVER_PROPERTY, havingValue = "true")
    static class OnAxonServer {

        @Bean
        StoredEvents storedEvents(EventStore eventStore, @Qualifier("eventSerializer") Serializer serializer) {
            return new AxonStoredEvents(eventStore, serializer);
        }

        @Bean
        WalletBalances walletBalances(JdbcTemplate jdbc, EventStore eventStore) {
            return new AxonWalletBalances(jdbc, eventStore);
        }
    }

    @Bean
    SessionAudit sessionAudit(StoredEvents events) {
        return new SessionAudit(events);
    }

    @Bean
    Reconciliation reconciliation(StoredEvents events, JdbcTemplate jdbc) {
        return new Reconciliation(events, new SettlementStore(jdbc, "settlement"));
    }

    /** The replay of every projection a module offers ({@link ProjectionRebuild} beans, this module's below). */
    @Bean
    ProjectionReplay projectionReplay(StoredEvents events, List<ProjectionRebuild> rebuilds,
                                      PlatformTransactionManager transactions) {
        return new ProjectionReplay(events, rebuilds, new TransactionTemplate(transactions));
    }

    /** The session views, rebuilt into fresh tables for the audit replay. */
    @Bean
    ProjectionRebuild sessionViewsRebuild(JdbcTemplate jdbc, StoredEvents events) {
        return new SessionViewsRebuild(jdbc, events);
    }

    /** The reconciliation read model, rebuilt into fresh tables for the audit replay. */
    @Bean
    ProjectionRebuild settlementRebuild(JdbcTemplate jdbc) {
        return new SettlementRebuild(jdbc);
    }
}
