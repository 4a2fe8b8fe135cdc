package io.paysession.webhook.admin;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionEvent;
import io.paysession.webhook.delivery.DeliveryStore;
import io.paysession.webhook.delivery.WebhookDestinations;
import io.paysession.webhook.delivery.WebhookDispatcher;
import io.paysession.webhook.delivery.WebhookMetrics;
import io.paysession.webhook.delivery.WebhookProperties;
import io.paysession.webhook.delivery.WebhookSender;
import io.paysession.webhook.notification.NewNotification;
import io.paysession.webhook.notification.NotificationOutbox;
import io.paysession.webhook.notification.NotificationsRedelivered;
import io.paysession.webhook.notification.NotificationsStored;
import io.paysession.webhook.notification.WebhookNotificationProjection;
import io.paysession.webhook.notification.WebhookType;
import io.paysession.webhook.testing.PartnerReceiver;
import io.paysession.webhook.testing.SampleSession;
import io.paysession.webhook.testing.TestDatabase;
import io.paysession.webhook.testing.TestSigner;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

/** Listing and redelivery against a real PostgreSQL, a real dispatcher and a partner that verifies signatures. */
class WebhookAdministrationTest {

    private static final TestDatabase DB = TestDatabase.get();
    private static final TestSigner SIGNER = new TestSigner();
    private static final Duration DELIVERY = Duration.ofSeconds(5);

    private final List<WebhookDispatcher> dispatchers = new ArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final AtomicInteger signals = new AtomicInteger();
    private PartnerReceiver partners;
    private EmbeddedEventStore eventStore;
    private NotificationOutbox outbox;
    private WebhookAdministration administration;

    @BeforeEach
    void setUp() throws IOException {
        DB.clear();
        partners = new PartnerReceiver(SIGNER);
        eventStore = EmbeddedEventStore.builder().storageEngine(new InMemoryEventStorageEngine()).build();
        outbox = new NotificationOutbox(DB.jdbc(), this::signal);
        administration = new WebhookAdministration(new WebhookAdminStore(DB.jdbc()), outbox, eventStore,
                DB.transactionManager(), this::signal, new WebhookMetrics(meters));
    }

    @AfterEach
    void tearDown() {
        dispatchers.forEach(WebhookDispatcher::stop);
        partners.close();
        eventStore.shutDown();
    }

    @Test
    void aDeliveredNotificationIsSentAgainWithItsIdAndTheHistoryShowsWhoAskedForIt() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);
        startDispatcher(Duration.ofSeconds(10));
        await().atMost(DELIVERY).until(() -> state(id) == NotificationState.DELIVERED);

        Optional<NotificationRecord> redelivered = administration.redeliver(id, "admin");

        assertThat(redelivered).get().satisfies(record -> {
            assertThat(record.state()).isEqualTo(NotificationState.PENDING);
            assertThat(record.windowStartedAt()).isAfter(record.createdAt());
            assertThat(record.redeliveries()).singleElement().satisfies(redelivery -> {
                assertThat(redelivery.number()).isEqualTo(1);
                assertThat(redelivery.requestedBy()).isEqualTo("admin");
                assertThat(redelivery.operation()).isEqualTo(RedeliveryOperation.REDELIVER);
                assertThat(redelivery.previousState()).isEqualTo(NotificationState.DELIVERED);
            });
        });
        await().atMost(DELIVERY).until(() -> state(id) == NotificationState.DELIVERED);
        assertThat(partners.requestsFor(id.toString())).hasSize(2)
                .allSatisfy(request -> assertThat(request.signatureValid()).isTrue())
                .extracting(PartnerReceiver.Request::body).containsOnly(body(id));
        assertThat(administration.find(id).orElseThrow().attempts())
                .extracting(NotificationRecord.Attempt::number, NotificationRecord.Attempt::httpStatus,
                        NotificationRecord.Attempt::redelivery)
                .containsExactly(tuple(1, 200, 0),
                        tuple(2, 200, 1));
        assertThat(meters.get(WebhookMetrics.REDELIVERED).tag("operation", "redeliver").counter().count()).isEqualTo(1);
    }

    @Test
    void aRedeliveredParkedNotificationGetsAFreshRetryWindowInsteadOfBeingParkedAtItsFirstFailure() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);
        AtomicInteger failuresLeft = new AtomicInteger(Integer.MAX_VALUE);
        partners.answer("shop", request -> failuresLeft.getAndDecrement() > 0 ? 500 : 200);
        startDispatcher(Duration.ofMillis(600));
        await().atMost(DELIVERY).until(() -> state(id) == NotificationState.PARKED);
        int attemptsBefore = administration.find(id).orElseThrow().attempts().size();

        failuresLeft.set(1);
        administration.redeliver(id, "admin");

        await().atMost(DELIVERY).until(() -> state(id) == NotificationState.DELIVERED);
        assertThat(administration.find(id).orElseThrow().attempts()).hasSize(attemptsBefore + 2)
                .filteredOn(attempt -> attempt.redelivery() == 1)
                .extracting(NotificationRecord.Attempt::httpStatus).containsExactly(500, 200);
    }

    @Test
    void anAttemptThatWasInFlightWhenTheRedeliveryCameDoesNotSettleIt() throws InterruptedException {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);
        CountDownLatch firstArrived = new CountDownLatch(1);
        CountDownLatch redeliveryDone = new CountDownLatch(1);
        partners.answer("shop", request -> {
            if (request.order() == 0) {
                firstArrived.countDown();
                redeliveryDone.await(5, TimeUnit.SECONDS);
            }
            return 200;
        });
        startDispatcher(Duration.ofSeconds(10));
        assertThat(firstArrived.await(5, TimeUnit.SECONDS)).isTrue();

        administration.redeliver(id, "admin");
        redeliveryDone.countDown();

        await().atMost(DELIVERY).until(() -> partners.requestsFor(id.toString()).size() == 2
                && state(id) == NotificationState.DELIVERED);
        assertThat(administration.find(id).orElseThrow().attempts())
                .extracting(NotificationRecord.Attempt::httpStatus, NotificationRecord.Attempt::redelivery)
                .containsExactly(tuple(200, 0), tuple(200, 1));
    }

    @Test
    void redeliveringTheParkedNotificationsOfAPartnerLeavesOtherPartnersAndOtherStatesAlone() {
        UUID parked1 = notification("shop", "ps_1", 2);
        UUID parked2 = notification("shop", "ps_2", 2);
        UUID delivered = notification("shop", "ps_3", 2);
        UUID otherParked = notification("other", "ps_4", 2);
        setState(parked1, "PARKED");
        setState(parked2, "PARKED");
        setState(delivered, "DELIVERED");
        setState(otherParked, "PARKED");

        List<UUID> redelivered = administration.redeliverParked("shop", "admin");

        assertThat(redelivered).containsExactlyInAnyOrder(parked1, parked2);
        assertThat(state(parked1)).isEqualTo(NotificationState.PENDING);
        assertThat(state(parked2)).isEqualTo(NotificationState.PENDING);
        assertThat(state(delivered)).isEqualTo(NotificationState.DELIVERED);
        assertThat(state(otherParked)).isEqualTo(NotificationState.PARKED);
        assertThat(administration.find(parked1).orElseThrow().redeliveries()).singleElement()
                .satisfies(redelivery -> assertThat(redelivery.operation()).isEqualTo(RedeliveryOperation.REDELIVER_PARKED));
        assertThat(administration.redeliverParked("shop", "admin")).isEmpty();
        assertThat(signals).as("the dispatcher is woken once, for the redelivery that changed something").hasValue(5);
    }

    @Test
    void aRedeliveredEarlierNotificationGoesOutBeforeTheLaterPendingOneOfItsSession() {
        endpoint("shop");
        UUID earlier = notification("shop", "ps_100", 2);
        UUID later = notification("shop", "ps_100", 4);
        setState(earlier, "DELIVERED");

        administration.redeliver(earlier, "admin");
        startDispatcher(Duration.ofSeconds(10));

        await().atMost(DELIVERY).until(() -> state(later) == NotificationState.DELIVERED);
        assertThat(partners.requests()).extracting(PartnerReceiver.Request::webhookId)
                .containsExactly(earlier.toString(), later.toString());
    }

    @Test
    void resendingASessionDerivesItsNotificationsFromTheEventsAndKeepsTheirIds() {
        SampleSession session = new SampleSession(700);
        List<DomainEventMessage<?>> stream = store(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.succeeded());
        WebhookNotificationProjection projection = new WebhookNotificationProjection(eventStore, outbox, new TrackingTokenPositions());
        stream.forEach(message -> projection.on((SessionEvent) message.getPayload(), message));
        List<NotificationRecord> original = administration.list(new NotificationFilter("ps_700", null, null, 10))
                .notifications();
        assertThat(original).extracting(NotificationRecord::type).containsExactly("payment_finished", "ready_to_confirm");
        UUID finished = original.get(0).id();
        UUID ready = original.get(1).id();
        setState(ready, "DELIVERED");
        String finishedBody = body(finished);
        // as if the outbox had lost it: the events still hold it
        DB.jdbc().update("DELETE FROM webhook_notification WHERE id = ?", finished);

        List<NotificationRecord> resent = administration.resendSession("ps_700", "admin").orElseThrow();

        assertThat(resent).extracting(NotificationRecord::id).containsExactly(ready, finished);
        assertThat(resent).allSatisfy(record -> assertThat(record.state()).isEqualTo(NotificationState.PENDING));
        assertThat(resent.get(0).redeliveries()).singleElement().satisfies(redelivery -> {
            assertThat(redelivery.operation()).isEqualTo(RedeliveryOperation.RESEND_SESSION);
            assertThat(redelivery.previousState()).isEqualTo(NotificationState.DELIVERED);
        });
        assertThat(resent.get(1).redeliveries()).singleElement()
                .satisfies(redelivery -> assertThat(redelivery.previousState()).as("restored from the events").isNull());
        assertThat(body(finished)).isEqualTo(finishedBody);
        assertThat(administration.resendSession("ps_701", "admin")).as("no such session").isEmpty();
    }

    @Test
    void aSessionWithoutNotificationsIsResentAsNothingAndExists() {
        SampleSession session = new SampleSession(800);
        store(session.created(ApiVersion.V2));

        assertThat(administration.resendSession("ps_800", "admin")).contains(List.of());
        assertThat(administration.sessionExists("ps_800")).isTrue();
        assertThat(administration.sessionExists("ps_801")).isFalse();
    }

    @Test
    void listsFilterBySessionPartnerAndStateNewestFirstAndSayWhenTheLimitCutThem() {
        UUID first = notification("shop", "ps_1", 2);
        UUID second = notification("shop", "ps_1", 4);
        UUID third = notification("shop", "ps_2", 2);
        UUID other = notification("other", "ps_3", 2);
        setState(third, "PARKED");

        assertThat(ids(new NotificationFilter("ps_1", null, null, 10))).containsExactly(second, first);
        assertThat(ids(new NotificationFilter(null, "shop", null, 10))).containsExactly(third, second, first);
        assertThat(ids(new NotificationFilter(null, "shop", NotificationState.PARKED, 10))).containsExactly(third);
        assertThat(ids(new NotificationFilter(null, null, NotificationState.PENDING, 10))).containsExactly(other, second, first);
        NotificationPage cut = administration.list(new NotificationFilter(null, null, null, 2));
        assertThat(cut.notifications()).extracting(NotificationRecord::id).containsExactly(other, third);
        assertThat(cut.hasMore()).isTrue();
        assertThat(administration.list(new NotificationFilter(null, null, null, 4)).hasMore()).isFalse();
        assertThat(administration.find(UUID.randomUUID())).isEmpty();
        assertThat(administration.redeliver(UUID.randomUUID(), "admin")).isEmpty();
    }

    private void signal(Object event) {
        if (event instanceof NotificationsRedelivered redelivered) {
            dispatchers.forEach(dispatcher -> dispatcher.on(redelivered));
            return;
        }
        signals.incrementAndGet();
        dispatchers.forEach(dispatcher -> dispatcher.on((NotificationsStored) event));
    }

    private void startDispatcher(Duration retryWindow) {
        WebhookProperties properties = new WebhookProperties(Duration.ofMillis(100), 2, Duration.ofMillis(400),
                retryWindow, Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMillis(50), 8, 4,
                Duration.ofSeconds(10), 100, List.of("127.0.0.0/8"), 8,
                new WebhookProperties.CircuitBreaker(5, Duration.ofMillis(200), 2, Duration.ofSeconds(1)), true);
        WebhookDispatcher dispatcher = new WebhookDispatcher(new DeliveryStore(DB.jdbc(), DB.transactionManager()),
                new WebhookSender(SIGNER, properties, new WebhookDestinations(properties.allowedNetworks(), url -> false,
                        InetAddress::getAllByName)), properties, new WebhookMetrics(meters));
        dispatchers.add(dispatcher);
        dispatcher.start();
    }

    private List<DomainEventMessage<?>> store(SessionEvent... events) {
        List<DomainEventMessage<?>> messages = new ArrayList<>();
        for (int sequence = 0; sequence < events.length; sequence++) {
            messages.add(new GenericDomainEventMessage<>("Session", events[sequence].sessionId().value(), sequence,
                    events[sequence]));
        }
        eventStore.publish(messages);
        return messages;
    }

    private void endpoint(String project) {
        outbox.saveEndpoint(project, partners.url(project), Instant.now());
    }

    private UUID notification(String project, String sessionId, long sequence) {
        UUID id = UUID.randomUUID();
        String body = "{\"type\":\"payment_finished\",\"session\":{\"id\":\"" + sessionId + "\",\"n\":" + sequence + "}}";
        outbox.add(new NewNotification(id, sessionId, project, WebhookType.PAYMENT_FINISHED, body, sequence, null));
        return id;
    }

    private List<UUID> ids(NotificationFilter filter) {
        return administration.list(filter).notifications().stream().map(NotificationRecord::id).toList();
    }

    private NotificationState state(UUID id) {
        return administration.find(id).orElseThrow().state();
    }

    private static void setState(UUID id, String state) {
        DB.jdbc().update("UPDATE webhook_notification SET state = ? WHERE id = ?", state, id);
    }

    private static String body(UUID id) {
        return DB.jdbc().queryForObject("SELECT body FROM webhook_notification WHERE id = ?", String.class, id);
    }
}
