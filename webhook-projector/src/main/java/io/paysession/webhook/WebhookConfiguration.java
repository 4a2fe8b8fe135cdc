package io.paysession.webhook;

import io.paysession.webhook.delivery.WebhookProperties;
import io.paysession.webhook.notification.WebhookNotificationProjection;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
@EnableConfigurationProperties(WebhookProperties.class)
public class WebhookConfiguration {

    /**
     * A pooled streaming processor; its default sequencing policy keeps each session's events in order.
     * Errors propagate so that a failed event is retried rather than skipped: a skipped event would be
     * a webhook never sent.
     */
    @Bean
    public ConfigurerModule webhookNotificationsProcessor() {
        return configurer -> configurer.eventProcessing()
                .registerPooledStreamingEventProcessor(WebhookNotificationProjection.PROCESSING_GROUP)
                .registerListenerInvocationErrorHandler(WebhookNotificationProjection.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance());
    }
}
