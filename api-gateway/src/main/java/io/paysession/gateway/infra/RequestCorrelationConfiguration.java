package io.paysession.gateway.infra;

import io.paysession.api.RequestMetadataKeys;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.MessageOriginProvider;
import org.axonframework.messaging.correlation.SimpleCorrelationDataProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What Axon copies from a command onto the events it causes: the command's id (correlationId, which the
 * responses rely on) and the request behind it (endpoint, project, idempotency key, request id), which the
 * audit shows for every event. Declaring a provider switches off Axon's default, so both are declared.
 */
@Configuration
public class RequestCorrelationConfiguration {

    @Bean
    CorrelationDataProvider messageOriginProvider() {
        return new MessageOriginProvider();
    }

    @Bean
    CorrelationDataProvider requestCorrelation() {
        return new SimpleCorrelationDataProvider(RequestMetadataKeys.all());
    }
}
