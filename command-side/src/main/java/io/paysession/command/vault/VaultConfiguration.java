package io.paysession.command.vault;

import org.axonframework.config.ConfigurerModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The security code eraser runs subscribing: in the transaction that stores the event ending a code's use. */
@Configuration
public class VaultConfiguration {

    @Bean
    ConfigurerModule securityCodeEraserProcessing() {
        return configurer -> configurer.eventProcessing()
                .registerSubscribingEventProcessor(SecurityCodeEraser.PROCESSING_GROUP);
    }
}
