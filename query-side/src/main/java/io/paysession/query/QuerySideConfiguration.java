package io.paysession.query;

import io.paysession.query.partner.PartnerDirectoryProjection;
import io.paysession.query.recurrent.RecurrentTokenProjection;
import io.paysession.query.settlement.SettlementProjection;
import io.paysession.query.session.SessionViewProjection;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A projection that fails must fail the transaction it runs in, never log and skip: with subscribing
 * processors that rolls the command back, with streaming ones the event is retried.
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
}
