package io.paysession.command;

import io.paysession.command.process.PaymentProcess;
import io.paysession.command.session.CheckedAggregateCache;
import io.paysession.command.session.Session;
import io.paysession.command.session.SessionTimeLimits;
import io.paysession.command.rails.sandbox.SandboxProperties;
import org.axonframework.common.caching.Cache;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wiring of the write side. A failing process handler propagates its error, so that the processor
 * retries the event instead of logging and skipping it: a rail answer must never be dropped.
 */
@Configuration
@EnableConfigurationProperties({SandboxProperties.class, SessionTimeLimits.class})
public class CommandSideConfiguration {

    /**
     * Sessions kept loaded between their commands ({@code @Aggregate(cache = "sessionCache")}), each checked against
     * the store's last sequence number before use ({@link CheckedAggregateCache}).
     */
    @Bean
    Cache sessionCache(ObjectProvider<org.axonframework.config.Configuration> axon,
                       @Value("${payments.cache.aggregates:10000}") long aggregates) {
        return new CheckedAggregateCache<>(aggregates, () -> CheckedAggregateCache.axon(Session.class, axon.getObject()));
    }

    @Bean
    ConfigurerModule commandSideProcessing() {
        return configurer -> configurer.eventProcessing()
                .registerListenerInvocationErrorHandler(PaymentProcess.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance());
    }
}
