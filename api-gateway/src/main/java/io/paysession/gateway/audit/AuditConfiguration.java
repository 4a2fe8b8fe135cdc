package io.paysession.gateway.audit;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.query.settlement.SettlementStore;
import org.axonframework.serialization.Serializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.List;

/** The audit services over the service's own database and serializer, for the admin API. */
@Configuration
public class AuditConfiguration {

    @Bean
    StoredEvents storedEvents(JdbcTemplate jdbc, Serializer serializer) {
        return new StoredEvents(jdbc, serializer);
    }

    @Bean
    SessionAudit sessionAudit(StoredEvents events) {
        return new SessionAudit(events);
    }

    @Bean
    Reconciliation reconciliation(StoredEvents events, JdbcTemplate jdbc) {
        return new Reconciliation(events, new SettlementStore(jdbc, "settlement"));
    }

    @Bean
    ProjectionReplay projectionReplay(StoredEvents events, List<ProjectionRebuild> rebuilds) {
        return new ProjectionReplay(events, rebuilds);
    }
}
