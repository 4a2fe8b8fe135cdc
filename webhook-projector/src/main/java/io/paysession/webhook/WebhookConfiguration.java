package io.paysession.webhook;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.webhook.delivery.WebhookProperties;
import io.paysession.webhook.notification.WebhookNotificationProjection;
import io.paysession.webhook.notification.WebhookOutboxRebuild;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.TrackingEventProcessorConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

@Configuration
@EnableConfigurationProperties(WebhookProperties.class)
public class WebhookConfiguration {

    /**
     * A tracking processor with two segments; its default sequencing policy keeps each session's events in
     * order. Tracking rather than pooled: a pooled processor polls the embedded event store every 500 ms
     * when idle, a tracking one wakes on each local commit, so a webhook leaves right after its event.
     * Errors propagate so that a failed event is retried rather than skipped: a skipped event would be a
     * webhook never sent.
     */
    /**
     * Events handled in one transaction at most. A processor takes what the store holds, up to this many, without
     * waiting for more: one event when the service is quiet, and under load one commit and one token update for
     * many events instead of one each (each event keeps its own savepoint, so a poison event is still parked alone).
     */
    static final int BATCH_SIZE = 32;

    @Bean
    public ConfigurerModule webhookNotificationsProcessor() {
        return configurer -> configurer.eventProcessing()
                .registerTrackingEventProcessor(WebhookNotificationProjection.PROCESSING_GROUP,
                        org.axonframework.config.Configuration::eventStore,
                        configuration -> TrackingEventProcessorConfiguration.forParallelProcessing(2)
                                .andInitialSegmentsCount(2)
                                .andBatchSize(BATCH_SIZE))
                .registerListenerInvocationErrorHandler(WebhookNotificationProjection.PROCESSING_GROUP,
                        configuration -> PropagatingErrorHandler.instance());
    }

    /** The outbox's notifications, rebuilt into a fresh table for the audit replay. */
    @Bean
    public ProjectionRebuild webhookOutboxRebuild(JdbcTemplate jdbc) {
        return new WebhookOutboxRebuild(jdbc);
    }
}
