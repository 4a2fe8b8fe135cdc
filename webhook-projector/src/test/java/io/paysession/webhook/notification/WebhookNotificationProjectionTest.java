package io.paysession.webhook.notification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionViewCache;
import io.paysession.webhook.WebhookConfiguration;
import io.paysession.webhook.testing.SampleSession;
import io.paysession.webhook.testing.TestDatabase;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.SubscribingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class WebhookNotificationProjectionTest {

    private static final TestDatabase DB = TestDatabase.get();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SampleSession session = new SampleSession(3230);
    private final AtomicInteger signals = new AtomicInteger();
    private EmbeddedEventStore eventStore;
    private NotificationOutbox outbox;
    private WebhookNotificationProjection projection;

    @BeforeEach
    void setUp() {
        DB.clear();
        eventStore = EmbeddedEventStore.builder().storageEngine(new InMemoryEventStorageEngine()).build();
        outbox = new NotificationOutbox(DB.jdbc(), event -> signals.incrementAndGet());
        projection = new WebhookNotificationProjection(eventStore, outbox, new TrackingTokenPositions());
    }

    @AfterEach
    void tearDown() {
        eventStore.shutDown();
    }

    @Test
    void aWebhookShowsTheSessionAsItWasAtItsEventEvenWhenLaterEventsAreAlreadyStored() throws Exception {
        List<DomainEventMessage<?>> stream = store(session.created(ApiVersion.V2), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.succeeded());

        handle(stream.get(2));

        List<Row> rows = rows();
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.sessionId()).isEqualTo("ps_3230");
            assertThat(row.project()).isEqualTo(SampleSession.PROJECT);
            assertThat(row.type()).isEqualTo("ready_to_confirm");
            assertThat(row.sessionSequence()).isEqualTo(2);
            assertThat(row.state()).isEqualTo("PENDING");
            assertThat(row.attempts()).isZero();
        });
        JsonNode body = JSON.readTree(rows.get(0).body());
        assertThat(body.path("type").asText()).isEqualTo("ready_to_confirm");
        assertThat(body.path("session").path("status").asText()).isEqualTo("in_progress");
        assertThat(body.path("session").path("next_action").asText()).isEqualTo("confirm");
        assertThat(body.path("session").path("payment_list").path(0).path("status").asText()).isEqualTo("pending");
        assertThat(signals).hasValue(1);
    }

    @Test
    void handlingTheSameEventAgainStoresNoSecondNotification() {
        List<DomainEventMessage<?>> stream = store(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm());

        handle(stream.get(2));
        handle(stream.get(2));

        assertThat(rows()).hasSize(1);
        assertThat(signals).hasValue(1);
    }

    @Test
    void eachEventOfASessionGivesAtMostOneNotificationInEventOrder() {
        List<DomainEventMessage<?>> stream = store(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.declined());

        stream.forEach(this::handle);

        assertThat(rows()).extracting(Row::type, Row::sessionSequence)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ready_to_confirm", 2L),
                        org.assertj.core.groups.Tuple.tuple("payment_finished", 4L));
    }

    @Test
    void anEventThatFillsAGapKeepsItsOwnPositionNotTheTokens() {
        List<DomainEventMessage<?>> stream = store(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm());
        // the event was written at position 119, but reached the processor after 121 had: its gap-aware token
        // reads 121 (the highest position seen), and the store alone knows the event's own position
        DB.jdbc().execute("CREATE TABLE domain_event_entry (global_index bigint, event_identifier varchar(255))");
        try {
            DB.jdbc().update("INSERT INTO domain_event_entry VALUES (119, ?)", stream.get(2).getIdentifier());

            new WebhookNotificationProjection(eventStore, outbox, DB.jdbcEventPositions()).on(
                    (SessionEvent) stream.get(2).getPayload(), new GenericTrackedDomainEventMessage<>(
                            GapAwareTrackingToken.newInstance(121, java.util.Set.of()), stream.get(2)));

            assertThat(DB.jdbc().queryForObject("SELECT event_global_index FROM webhook_notification", Long.class))
                    .isEqualTo(119L);
        } finally {
            DB.jdbc().execute("DROP TABLE domain_event_entry");
        }
    }

    @Test
    void theGlobalIndexOfATrackedEventIsKept() {
        List<DomainEventMessage<?>> stream = store(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm());

        projection.on((SessionEvent) stream.get(2).getPayload(),
                new GenericTrackedDomainEventMessage<>(new GlobalSequenceTrackingToken(41), stream.get(2)));

        assertThat(DB.jdbc().queryForObject("SELECT event_global_index FROM webhook_notification", Long.class))
                .isEqualTo(41L);
    }

    @Test
    void partnerEventsKeepTheWebhookEndpointOfEachProjectCurrent() {
        Instant registered = Instant.parse("2026-11-22T09:00:00Z");
        projection.on(new PartnerRegisteredEvent(PartnerId.of("shop"), settings("https://shop.example/hooks"), registered));
        projection.on(new PartnerRegisteredEvent(PartnerId.of("other"), settings("https://other.example/in"), registered));
        projection.on(new PartnerUpdatedEvent(PartnerId.of("shop"), settings("https://shop.example/v2/hooks"),
                registered.plusSeconds(60)));

        assertThat(DB.jdbc().queryForList("SELECT project || ' ' || url FROM webhook_endpoint ORDER BY project", String.class))
                .containsExactly("other https://other.example/in", "shop https://shop.example/v2/hooks");
        assertThat(DB.jdbc().queryForObject("SELECT updated_at FROM webhook_endpoint WHERE project = 'shop'",
                OffsetDateTime.class).toInstant()).isEqualTo(registered.plusSeconds(60));
    }

    @Test
    void aSubscribingProcessorThatPropagatesErrorsWritesTheOutboxAsTheEventsArePublishedWithTheirPositions() {
        // false: no service-loaded modules, so no attempt to reach an Axon Server
        Configurer configurer = DefaultConfigurer.defaultConfiguration(false)
                .configureEmbeddedEventStore(configuration -> new InMemoryEventStorageEngine());
        new WebhookConfiguration().webhookNotificationsProcessor().configureModule(configurer);
        configurer.eventProcessing().registerEventHandler(
                configuration -> new WebhookNotificationProjection(configuration.eventStore(), outbox,
                        DB.jdbcEventPositions(), new SessionViewCache()));
        Configuration axon = configurer.start();
        try {
            assertThat(axon.eventProcessingConfiguration().eventProcessor(WebhookNotificationProjection.PROCESSING_GROUP))
                    .get().isInstanceOf(SubscribingEventProcessor.class);
            assertThat(axon.eventProcessingConfiguration()
                    .listenerInvocationErrorHandler(WebhookNotificationProjection.PROCESSING_GROUP))
                    .isSameAs(PropagatingErrorHandler.instance());
            List<DomainEventMessage<?>> events = messages(session.created(ApiVersion.V1), session.paymentStarted(),
                    session.readyToConfirm(), session.confirmed(), session.succeeded());
            // the positions the JDBC event store gives, in the table the outbox reads them from
            DB.jdbc().execute("CREATE TABLE IF NOT EXISTS domain_event_entry"
                    + " (global_index bigint PRIMARY KEY, event_identifier varchar(255) NOT NULL UNIQUE)");
            DB.jdbc().update("DELETE FROM domain_event_entry");
            for (int i = 0; i < events.size(); i++) {
                DB.jdbc().update("INSERT INTO domain_event_entry VALUES (?, ?)", 700L + i, events.get(i).getIdentifier());
            }

            axon.eventStore().publish(events);
            axon.eventStore().publish(new GenericDomainEventMessage<>("Partner", "partner:shop", 0,
                    new PartnerRegisteredEvent(PartnerId.of("shop"), settings("https://shop.example/hooks"), Instant.now())));

            // written before publish returned: in the publishing unit of work, no processor lag
            assertThat(rows()).extracting(Row::type).containsExactly("ready_to_confirm", "payment_finished");
            assertThat(rows()).extracting(Row::eventGlobalIndex).containsExactly(702L, 704L);
            assertThat(DB.jdbc().queryForObject("SELECT count(*) FROM webhook_endpoint", Integer.class)).isEqualTo(1);
        } finally {
            axon.shutdown();
            DB.jdbc().execute("DROP TABLE IF EXISTS domain_event_entry");
        }
    }

    private List<DomainEventMessage<?>> store(SessionEvent... events) {
        List<DomainEventMessage<?>> messages = messages(events);
        eventStore.publish(messages);
        return messages;
    }

    private static List<DomainEventMessage<?>> messages(SessionEvent... events) {
        List<DomainEventMessage<?>> messages = new ArrayList<>();
        for (int sequence = 0; sequence < events.length; sequence++) {
            messages.add(new GenericDomainEventMessage<>("Session", events[sequence].sessionId().value(), sequence,
                    events[sequence]));
        }
        return messages;
    }

    private void handle(DomainEventMessage<?> message) {
        projection.on((SessionEvent) message.getPayload(), message);
    }

    private static PartnerSettings settings(String webhookUrl) {
        return new PartnerSettings("-----BEGIN PUBLIC KEY-----", webhookUrl, CaptureMode.AUTO, FeeSchedule.NONE);
    }

    private record Row(String sessionId, String project, String type, String body, long sessionSequence,
                       Long eventGlobalIndex, String state, int attempts) {
    }

    private static List<Row> rows() {
        return DB.jdbc().query("""
                        SELECT session_id, project, type, body, session_sequence, event_global_index, state, attempts
                          FROM webhook_notification ORDER BY session_sequence""",
                (rs, n) -> new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5),
                        (Long) rs.getObject(6), rs.getString(7), rs.getInt(8)));
    }
}
