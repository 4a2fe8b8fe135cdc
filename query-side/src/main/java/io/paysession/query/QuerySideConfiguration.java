package io.paysession.query;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.query.partner.PartnerDirectoryProjection;
import io.paysession.query.recurrent.RecurrentTokenProjection;
import io.paysession.query.settlement.SettlementProjection;
import io.paysession.query.session.SessionViewProjection;
import io.paysession.query.session.SessionViewsRebuild;
import io.paysession.query.settlement.SettlementRebuild;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A projection that fails must fail the transaction it runs in, never log and skip: with subscribing
 * processors that rolls the command back, with streaming ones the event is retried. The module's projections
 * are also offered to the audit replay, each rebuilt by its own code ({@link ProjectionRebuild}).
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

    /** The session views, rebuilt into fresh tables for the audit replay. */
    @Bean
    ProjectionRebuild sessionViewsRebuild(JdbcTemplate jdbc) {
        return new SessionViewsRebuild(jdbc);
    }

    /** The reconciliation read model, rebuilt into fresh tables for the audit replay. */
    @Bean
    ProjectionRebuild settlementRebuild(JdbcTemplate jdbc) {
        return new SettlementRebuild(jdbc);
    }
}
