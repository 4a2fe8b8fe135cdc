package io.paysession.command;

import io.paysession.command.process.PaymentProcess;
import io.paysession.command.session.SessionTimeLimits;
import io.paysession.command.rails.sandbox.SandboxProperties;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
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

    @Bean
    ConfigurerModule commandSideProcessing() {
        return configurer -> configurer.eventProcessing()
                .registerListenerInvocationErrorHandler(PaymentProcess.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance());
    }
}
