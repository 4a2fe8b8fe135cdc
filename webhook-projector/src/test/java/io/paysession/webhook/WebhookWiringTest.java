package io.paysession.webhook;

import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionViewCache;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.paysession.webhook.admin.WebhookAdminStore;
import io.paysession.webhook.admin.WebhookAdministration;
import io.paysession.webhook.delivery.DeliveryStore;
import io.paysession.webhook.delivery.WebhookDestinations;
import io.paysession.webhook.delivery.WebhookDispatcher;
import io.paysession.webhook.delivery.WebhookMetrics;
import io.paysession.webhook.delivery.WebhookProperties;
import io.paysession.webhook.delivery.WebhookSender;
import io.paysession.webhook.delivery.WebhookSigner;
import io.paysession.webhook.notification.NotificationOutbox;
import io.paysession.webhook.notification.WebhookNotificationProjection;
import io.paysession.webhook.testing.PartnerReceiver;
import io.paysession.webhook.testing.SampleSession;
import io.paysession.webhook.testing.TestDatabase;
import io.paysession.webhook.testing.TestSigner;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The module's beans in a Spring context, given only what the application provides. */
class WebhookWiringTest {

    private static final TestDatabase DB = TestDatabase.get();

    @Test
    void aWebhookIsSentAsSoonAsTheProjectorCommitsNotAtTheNextPoll() throws Exception {
        DB.clear();
        TestSigner signer = new TestSigner();
        EmbeddedEventStore eventStore = EmbeddedEventStore.builder().storageEngine(new InMemoryEventStorageEngine()).build();
        SampleSession session = new SampleSession(5100);
        List<DomainEventMessage<?>> stream = new ArrayList<>();
        for (SessionEvent event : List.of(session.created(ApiVersion.V1), session.paymentStarted(), session.readyToConfirm())) {
            stream.add(new GenericDomainEventMessage<>("Session", event.sessionId().value(), stream.size(), event));
        }
        eventStore.publish(stream);
        // the event positions the outbox reads from the JDBC event store's table
        DB.jdbc().execute("CREATE TABLE IF NOT EXISTS domain_event_entry"
                + " (global_index bigint PRIMARY KEY, event_identifier varchar(255) NOT NULL UNIQUE)");
        DB.jdbc().update("DELETE FROM domain_event_entry");
        for (int i = 0; i < stream.size(); i++) {
            DB.jdbc().update("INSERT INTO domain_event_entry VALUES (?, ?)", 50L + i, stream.get(i).getIdentifier());
        }

        try (PartnerReceiver partners = new PartnerReceiver(signer)) {
            new ApplicationContextRunner()
                    .withBean(DataSource.class, DB::dataSource)
                    .withBean(JdbcTemplate.class, DB::jdbc)
                    .withBean(DataSourceTransactionManager.class, DB::transactionManager)
                    .withBean(EventStore.class, () -> eventStore)
                    .withBean(SessionViewCache.class, SessionViewCache::new)
                    .withBean(EventPositions.class, DB::jdbcEventPositions)
                    .withBean(WebhookSigner.class, () -> signer)
                    .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                    .withUserConfiguration(WebhookConfiguration.class, NotificationOutbox.class,
                            WebhookNotificationProjection.class, DeliveryStore.class, WebhookDestinations.class,
                            WebhookSender.class,
                            WebhookMetrics.class, WebhookDispatcher.class, WebhookAdminStore.class,
                            WebhookAdministration.class)
                    .withPropertyValues("payments.webhooks.poll-interval=30s",
                            // the partner's test endpoint listens on loopback
                            "payments.webhooks.allowed-networks=127.0.0.0/8")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context.getBean(WebhookProperties.class).pollInterval()).isEqualTo(Duration.ofSeconds(30));
                        assertThat(context.getBean(WebhookDispatcher.class).isRunning()).isTrue();
                        WebhookNotificationProjection projection = context.getBean(WebhookNotificationProjection.class);
                        projection.on(new PartnerRegisteredEvent(PartnerId.of(SampleSession.PROJECT), new PartnerSettings(
                                "-----BEGIN PUBLIC KEY-----", partners.url(SampleSession.PROJECT), CaptureMode.AUTO,
                                FeeSchedule.NONE), Instant.now()));

                        // As the event processor runs a handler: inside a transaction of the application's manager.
                        new TransactionTemplate(context.getBean(DataSourceTransactionManager.class))
                                .executeWithoutResult(status -> projection.on((SessionEvent) stream.get(2).getPayload(), stream.get(2)));

                        await().atMost(Duration.ofSeconds(3)).until(() -> partners.requests().size() == 1);
                        PartnerReceiver.Request request = partners.requests().get(0);
                        assertThat(request.signatureValid()).isTrue();
                        assertThat(request.signatureKeyId()).as("the key named beside the signature")
                                .isEqualTo(TestSigner.KEY_ID);
                        assertThat(request.body()).startsWith("{\"type\":\"ready_to_confirm\",\"session\":{\"id\":\"ps_5100\"");
                        await().atMost(Duration.ofSeconds(3)).until(() -> {
                            Counter delivered = context.getBean(MeterRegistry.class)
                                    .find(WebhookMetrics.DELIVERED).tag("type", "ready_to_confirm").counter();
                            return delivered != null && delivered.count() == 1;
                        });
                        assertThat(context.getBean(WebhookAdministration.class).sessionExists("ps_5100")).isTrue();
                        assertThat(DB.jdbc().queryForObject("SELECT event_global_index FROM webhook_notification",
                                Long.class)).isEqualTo(52L);
                        DB.jdbc().execute("DROP TABLE domain_event_entry");
                    });
        } finally {
            eventStore.shutDown();
        }
    }
}
