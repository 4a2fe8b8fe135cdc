package io.paysession.webhook;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.webhook.delivery.WebhookProperties;
import io.paysession.webhook.notification.WebhookNotificationProjection;
import io.paysession.webhook.notification.WebhookOutboxRebuild;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

@Configuration
@EnableConfigurationProperties(WebhookProperties.class)
public class WebhookConfiguration {

    /**
     * A subscribing processor: each notification is written in the transaction that stores its event, so the
     * outbox holds it exactly when the store holds the event (no processor lag, no token, no transaction of its
     * own), and the dispatcher of the node that committed it is woken right after the commit. A failure to derive
     * or store a notification fails the command's transaction, whose caller sees the error: a webhook is never
     * skipped.
     */
    @Bean
    public ConfigurerModule webhookNotificationsProcessor() {
        return configurer -> configurer.eventProcessing()
                .registerSubscribingEventProcessor(WebhookNotificationProjection.PROCESSING_GROUP)
                .registerListenerInvocationErrorHandler(WebhookNotificationProjection.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance());
    }

    /** The outbox's notifications, rebuilt into a fresh table for the audit replay. */
    @Bean
    public ProjectionRebuild webhookOutboxRebuild(JdbcTemplate jdbc) {
        return new WebhookOutboxRebuild(jdbc);
    }
}
