package io.paysession.webhook.delivery;

import io.paysession.webhook.notification.NewNotification;
import io.paysession.webhook.notification.NotificationOutbox;
import io.paysession.webhook.notification.NotificationsRedelivered;
import io.paysession.webhook.notification.NotificationsStored;
import io.paysession.webhook.notification.WebhookType;
import io.paysession.webhook.testing.PartnerReceiver;
import io.paysession.webhook.testing.TestDatabase;
import io.paysession.webhook.testing.TestSigner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The dispatcher against a real PostgreSQL and real partner endpoints that verify every signature. */
class WebhookDispatcherTest {

    private static final TestDatabase DB = TestDatabase.get();
    private static final TestSigner SIGNER = new TestSigner();
    private static final Duration DELIVERY = Duration.ofSeconds(5);

    private final List<WebhookDispatcher> dispatchers = new ArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private PartnerReceiver partners;
    private NotificationOutbox outbox;

    @BeforeEach
    void setUp() throws IOException {
        DB.clear();
        partners = new PartnerReceiver(SIGNER);
        // The outbox wakes the dispatchers as the projector's commit would.
        outbox = new NotificationOutbox(DB.jdbc(), event -> dispatchers.forEach(d -> d.on((NotificationsStored) event)));
    }

    @AfterEach
    void tearDown() {
        dispatchers.forEach(WebhookDispatcher::stop);
        partners.close();
    }

    @Test
    void aDeliveredWebhookCarriesItsBodyASignatureThePartnerVerifiesAndItsWebhookId() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);

        startDispatcher(Map.of());

        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        List<PartnerReceiver.Request> received = partners.requestsFor(id.toString());
        assertThat(received).hasSize(1);
        PartnerReceiver.Request request = received.get(0);
        assertThat(request.contentType()).isEqualTo("application/json");
        assertThat(request.signatureValid()).as("X-PARTNER-SIGN verifies with the service public key").isTrue();
        assertThat(request.body()).isEqualTo(body(id));
        assertThat(row(id)).isEqualTo(new Row("DELIVERED", 1, null, null));
        assertThat(deliveredAt(id)).isNotNull();
        assertThat(attempts(id)).containsExactly(new Attempt(1, 200, null));
    }

    @Test
    void aPartnerThatFailsTwiceGetsTheSameWebhookAgainWithGrowingPausesUntilItAnswers() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);
        AtomicInteger calls = new AtomicInteger();
        partners.answer("shop", request -> calls.incrementAndGet() <= 2 ? 500 : 200);

        startDispatcher(Map.of("initial-retry-interval", "200ms"));

        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        List<PartnerReceiver.Request> received = partners.requestsFor(id.toString());
        assertThat(received).hasSize(3)
                .allSatisfy(request -> {
                    assertThat(request.signatureValid()).isTrue();
                    assertThat(request.body()).isEqualTo(body(id));
                });
        assertThat(Duration.between(received.get(0).receivedAt(), received.get(1).receivedAt()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(Duration.between(received.get(1).receivedAt(), received.get(2).receivedAt()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(attempts(id)).containsExactly(
                new Attempt(1, 500, "HTTP 500"), new Attempt(2, 500, "HTTP 500"), new Attempt(3, 200, null));
        assertThat(row(id)).isEqualTo(new Row("DELIVERED", 3, null, null));
        assertThat(count(WebhookMetrics.RETRIED)).isEqualTo(2);
        assertThat(count(WebhookMetrics.DELIVERED)).isEqualTo(1);
        assertThat(count(WebhookMetrics.PARKED)).isZero();
        assertThat(meters.get(WebhookMetrics.LATENCY).tags("type", "payment_finished", "outcome", "http_error").timer().count())
                .isEqualTo(2);
        assertThat(meters.get(WebhookMetrics.LATENCY).tags("type", "payment_finished", "outcome", "delivered").timer().count())
                .isEqualTo(1);
    }

    @Test
    void theCountersOfEveryWebhookTypeExistAtZeroBeforeTheFirstWebhook() {
        new WebhookMetrics(meters);

        for (String counter : List.of(WebhookMetrics.DELIVERED, WebhookMetrics.RETRIED, WebhookMetrics.PARKED)) {
            assertThat(meters.find(counter).counters()).as(counter)
                    .extracting(c -> c.getId().getTag("type"))
                    .containsExactlyInAnyOrder("ready_to_confirm", "action_required", "ready_to_capture",
                            "payment_finished", "payment_refunded");
            assertThat(meters.find(counter).counters()).allSatisfy(c -> assertThat(c.count()).isZero());
        }
    }

    @Test
    void laterNotificationOfASessionWaitsUntilTheEarlierOneIsDelivered() {
        endpoint("shop");
        UUID first = notification("shop", "ps_100", 2);
        UUID second = notification("shop", "ps_100", 4);
        AtomicInteger callsOfFirst = new AtomicInteger();
        partners.answer("shop", request ->
                request.webhookId().equals(first.toString()) && callsOfFirst.incrementAndGet() <= 2 ? 503 : 200);

        startDispatcher(Map.of());

        await().atMost(DELIVERY).until(() -> state(second).equals("DELIVERED"));
        int firstAccepted = partners.answers().stream()
                .filter(answer -> answer.request().webhookId().equals(first.toString()) && answer.status() == 200)
                .mapToInt(answer -> answer.request().order())
                .findFirst().orElseThrow();
        assertThat(partners.requestsFor(first.toString())).hasSize(3);
        assertThat(partners.requestsFor(second.toString())).singleElement()
                .satisfies(request -> assertThat(request.order()).isGreaterThan(firstAccepted));
    }

    @Test
    void aParkedNotificationNoLongerBlocksTheNextOneOfItsSession() {
        endpoint("shop");
        UUID first = notification("shop", "ps_100", 2);
        UUID second = notification("shop", "ps_100", 3);
        partners.answer("shop", request -> request.webhookId().equals(first.toString()) ? 500 : 200);

        // about session order only: with the partner's circuit open when both windows end, the second one would be
        // parked unsent too (whileAPartnersCircuitIsOpenItsNotificationsAreNotSentAndAreParkedWhenTheirWindowEnds)
        startDispatcher(Map.of("retry-window", "1s", "circuit-breaker.failure-threshold", "100"));

        await().atMost(DELIVERY).until(() -> state(second).equals("DELIVERED"));
        Row parked = row(first);
        assertThat(parked.state()).isEqualTo("PARKED");
        // How many attempts fit in the window depends on the machine's speed; RetryPolicyTest covers that.
        assertThat(parked.attempts()).isPositive().isEqualTo(attempts(first).size());
        assertThat(parked.lastError()).isEqualTo("HTTP 500");
        assertThat(count(WebhookMetrics.PARKED)).isEqualTo(1);
        assertThat(count(WebhookMetrics.RETRIED)).isEqualTo(parked.attempts() - 1);
        int lastTryOfFirst = partners.requestsFor(first.toString()).stream()
                .mapToInt(PartnerReceiver.Request::order).max().orElseThrow();
        assertThat(partners.requestsFor(second.toString())).singleElement()
                .satisfies(request -> assertThat(request.order()).isGreaterThan(lastTryOfFirst));
    }

    @Test
    void aHangingPartnerDoesNotDelayTheWebhooksOfAnotherPartner() {
        endpoint("slowshop");
        endpoint("fastshop");
        partners.answer("slowshop", partners.hanging());
        for (int session = 1; session <= 4; session++) {
            notification("slowshop", "ps_" + session, 2);
        }
        startDispatcher(Map.of("max-concurrent-deliveries", "4", "max-concurrent-deliveries-per-partner", "2"));
        await().atMost(DELIVERY).until(() -> requestsOf("slowshop") == 2);

        Instant stored = Instant.now();
        UUID other = notification("fastshop", "ps_9", 2);

        await().atMost(Duration.ofSeconds(1)).until(() -> state(other).equals("DELIVERED"));
        assertThat(partners.requestsFor(other.toString()).get(0).receivedAt()).isBefore(stored.plusSeconds(1));
        assertThat(requestsOf("slowshop")).as("the hanging partner keeps no more than its share of the slots").isEqualTo(2);
    }

    @Test
    void anAnswerAfterTheAttemptTimeoutIsAFailedAttemptAndTheWebhookIsSentAgain() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);
        AtomicInteger calls = new AtomicInteger();
        partners.answer("shop", request -> {
            if (calls.incrementAndGet() == 1) {
                Thread.sleep(1_500);
            }
            return 200;
        });

        startDispatcher(Map.of("attempt-timeout", "500ms"));

        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        List<Attempt> attempts = attempts(id);
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).httpStatus()).isNull();
        assertThat(attempts.get(0).error()).contains("500 ms");
        assertThat(attempts.get(1)).isEqualTo(new Attempt(2, 200, null));
    }

    @Test
    void aRefusedConnectionIsAFailedAttemptWithoutStatusAndParksAfterTheWindow() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        outbox.saveEndpoint("goneshop", "http://127.0.0.1:" + closedPort + "/hooks/goneshop", Instant.now());
        UUID id = notification("goneshop", "ps_100", 2);

        startDispatcher(Map.of("retry-window", "300ms"));

        await().atMost(DELIVERY).until(() -> state(id).equals("PARKED"));
        assertThat(attempts(id)).isNotEmpty().allSatisfy(attempt -> {
            assertThat(attempt.httpStatus()).isNull();
            assertThat(attempt.error()).isNotBlank();
        });
        assertThat(row(id).attempts()).isEqualTo(attempts(id).size());
    }

    @Test
    void aWebhookOfAPartnerWithoutEndpointWaitsUncountedUntilTheEndpointIsKnown() {
        UUID id = notification("newshop", "ps_100", 2);

        startDispatcher(Map.of());

        await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(1))
                .until(() -> row(id).equals(new Row("PENDING", 0, null, null)) && partners.requests().isEmpty());
        endpoint("newshop");
        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        assertThat(attempts(id)).containsExactly(new Attempt(1, 200, null));
    }

    @Test
    void stoppingLetsASendInFlightFinishAndRecordsIt() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);
        partners.answer("shop", request -> {
            Thread.sleep(300);
            return 200;
        });
        WebhookDispatcher dispatcher = startDispatcher(Map.of());
        await().atMost(DELIVERY).until(() -> partners.requests().size() == 1);

        dispatcher.stop();

        assertThat(dispatcher.isRunning()).isFalse();
        assertThat(row(id)).isEqualTo(new Row("DELIVERED", 1, null, null));
    }

    @Test
    void twoDispatchersOnOneDatabaseSendEveryWebhookOnceAndInSessionOrder() {
        endpoint("shop");
        partners.answer("shop", request -> {
            Thread.sleep(5);
            return 200;
        });
        Map<UUID, String> sessionOf = new ConcurrentHashMap<>();
        Map<UUID, Long> sequenceOf = new ConcurrentHashMap<>();
        for (int session = 1; session <= 30; session++) {
            for (long sequence = 1; sequence <= 4; sequence++) {
                UUID id = notification("shop", "ps_" + session, sequence);
                sessionOf.put(id, "ps_" + session);
                sequenceOf.put(id, sequence);
            }
        }

        startDispatcher(Map.of("batch-size", "5"));
        startDispatcher(Map.of("batch-size", "5"));

        await().atMost(Duration.ofSeconds(15))
                .until(() -> DB.jdbc().queryForObject(
                        "SELECT count(*) FROM webhook_notification WHERE state = 'DELIVERED'", Integer.class) == 120);
        Map<String, Long> timesReceived = partners.requests().stream()
                .collect(Collectors.groupingBy(PartnerReceiver.Request::webhookId, Collectors.counting()));
        assertThat(timesReceived).hasSize(120).allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
        Map<String, List<Long>> arrivalOrderBySession = partners.requests().stream()
                .sorted(Comparator.comparingInt(PartnerReceiver.Request::order))
                .map(request -> UUID.fromString(request.webhookId()))
                .collect(Collectors.groupingBy(sessionOf::get, Collectors.mapping(sequenceOf::get, Collectors.toList())));
        assertThat(arrivalOrderBySession).hasSize(30)
                .allSatisfy((session, sequences) -> assertThat(sequences).as(session).containsExactly(1L, 2L, 3L, 4L));
        assertThat(DB.jdbc().queryForObject("SELECT count(*) FROM webhook_attempt", Integer.class)).isEqualTo(120);
    }

    @Test
    void aSendSlowerThanTheLeaseKeepsItsClaimAndNoOtherNodeSendsItMeanwhile() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 1);
        partners.answer("shop", request -> {
            Thread.sleep(3_500);
            return 200;
        });
        Map<String, String> settings = Map.of("claim-lease", "1s", "attempt-timeout", "5s", "poll-interval", "20ms");
        startDispatcher(settings);
        await().atMost(DELIVERY).until(() -> partners.requests().size() == 1);
        // a second node polls the whole time the first one's send runs: three and a half leases
        startDispatcher(settings);

        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        assertThat(partners.requests()).as("the webhook went out once").hasSize(1);
        assertThat(attempts(id)).containsExactly(new Attempt(1, 200, null));
    }

    @Test
    void aWebhookClaimedByANodeThatDiedIsSentByAnotherOnceItsLeaseRunsOut() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 1);
        // what a node killed mid-send leaves: the row claimed, nobody extending the claim
        DB.jdbc().update("UPDATE webhook_notification SET claimed_by = 'dead-node', claimed_until = ? WHERE id = ?",
                OffsetDateTime.now().plusSeconds(2), id);
        startDispatcher(Map.of("claim-lease", "2s"));

        await().during(Duration.ofMillis(1_200)).atMost(Duration.ofMillis(1_500)).until(() -> partners.requests().isEmpty());
        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        assertThat(partners.requests()).hasSize(1);
    }

    @Test
    void aLoopbackEndpointIsRefusedAtEveryAttemptUntilAnOperatorAllowsItsNetwork() {
        endpoint("shop");
        UUID id = notification("shop", "ps_100", 2);
        WebhookDispatcher withoutAllowance = startDispatcher(Map.of("allowed-networks", ""));

        await().atMost(DELIVERY).until(() -> attempts(id).size() >= 2);
        withoutAllowance.stop();
        assertThat(partners.requests()).as("no connection was opened").isEmpty();
        assertThat(attempts(id)).allSatisfy(attempt -> {
            assertThat(attempt.httpStatus()).isNull();
            assertThat(attempt.error()).isEqualTo("refused destination: the address 127.0.0.1 (loopback, 127.0.0.0/8); "
                    + WebhookDestinations.ALLOWANCE_HINT);
        });
        assertThat(state(id)).as("retried like any failed attempt").isEqualTo("PENDING");

        startDispatcher(Map.of("allowed-networks", "127.0.0.0/8"));

        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        assertThat(partners.requestsFor(id.toString())).singleElement()
                .satisfies(request -> assertThat(request.signatureValid()).isTrue());
    }

    @Test
    void aHostNameIsResolvedAndCheckedAtEachAttemptAndTheCheckedAddressIsTheOneConnectedTo() {
        // the partner's name first points at a loopback address the operator did not allow, then at the allowed one
        Map<String, String> answers = new ConcurrentHashMap<>(Map.of("partner.test", "127.0.0.2"));
        WebhookDestinations.Resolver zone = host -> answers.containsKey(host)
                ? new InetAddress[]{InetAddress.getByName(answers.get(host))} : InetAddress.getAllByName(host);
        String url = partners.url("shop").replace("127.0.0.1", "partner.test");
        outbox.saveEndpoint("shop", url, Instant.now());
        UUID id = notification("shop", "ps_100", 2);

        startDispatcher(Map.of("allowed-networks", "127.0.0.1/32"), zone);

        await().atMost(DELIVERY).until(() -> !attempts(id).isEmpty());
        assertThat(attempts(id).get(0).error()).isEqualTo("refused destination: partner.test resolves only to refused "
                + "addresses: 127.0.0.2 (loopback, 127.0.0.0/8); " + WebhookDestinations.ALLOWANCE_HINT);
        answers.put("partner.test", "127.0.0.1");
        await().atMost(DELIVERY).until(() -> state(id).equals("DELIVERED"));
        assertThat(partners.requestsFor(id.toString())).singleElement()
                .satisfies(request -> assertThat(request.signatureValid()).isTrue());
    }

    @Test
    void theServicesOwnInboxIsSentToOnLoopbackWithoutAnAllowanceAndNothingElseThere() {
        endpoint("demo");
        endpoint("shop");
        UUID toInbox = notification("demo", "ps_1", 2);
        UUID toOther = notification("shop", "ps_2", 2);
        String inbox = partners.url("demo");

        startDispatcher(Map.of("allowed-networks", ""), InetAddress::getAllByName, url -> url.toString().equals(inbox));

        await().atMost(DELIVERY).until(() -> state(toInbox).equals("DELIVERED") && !attempts(toOther).isEmpty());
        assertThat(attempts(toOther).get(0).error()).startsWith("refused destination: the address 127.0.0.1 (loopback");
        assertThat(partners.requests()).extracting(PartnerReceiver.Request::webhookId).containsOnly(toInbox.toString());
    }

    @Test
    void fourPartnersWhoseEndpointsNeverAnswerDelayNeitherAFifthNorTheirOwnWebhooksOnceTheyAnswerAgain() {
        List<String> hanging = List.of("hang1", "hang2", "hang3", "hang4");
        Map<UUID, String> sessionOf = new ConcurrentHashMap<>();
        for (String project : hanging) {
            endpoint(project);
            partners.answer(project, partners.hanging());
            for (int session = 1; session <= 10; session++) {
                for (long sequence = 1; sequence <= 2; sequence++) {
                    sessionOf.put(notification(project, project + "_ps_" + session, sequence), project + "_ps_" + session);
                }
            }
        }
        endpoint("healthy");
        // the default pool: 32 sends, 8 per partner, the last 8 for partners with nothing in flight
        startDispatcher(Map.of("attempt-timeout", "3s",
                "circuit-breaker.failure-threshold", "3",
                "circuit-breaker.open-interval", "1s",
                "circuit-breaker.max-open-interval", "2s"));
        await().atMost(DELIVERY).until(() -> requestsTo(hanging) >= 25);

        Instant stored = Instant.now();
        UUID healthy = notification("healthy", "ps_healthy", 1);

        await().atMost(Duration.ofSeconds(1)).until(() -> state(healthy).equals("DELIVERED"));
        assertThat(partners.requestsFor(healthy.toString()).get(0).receivedAt()).isBefore(stored.plusSeconds(1));
        assertThat(requestsTo(hanging)).as("three partners hold their share, the fourth one reserved slot").isEqualTo(25);

        // every attempt of the four ends at the time-out: their circuits open and stop the sending
        await().atMost(Duration.ofSeconds(30)).until(() -> hanging.stream().allMatch(project -> circuit(project, "open")
                || circuit(project, "half_open")));
        long before = requestsTo(List.of("hang1"));
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(requestsTo(List.of("hang1")) - before).as("only probes, one at a time, while the circuit is open")
                .isLessThanOrEqualTo(3);

        hanging.forEach(project -> partners.answer(project, request -> 200));

        await().atMost(Duration.ofSeconds(30)).until(() -> DB.jdbc().queryForObject(
                "SELECT count(*) FROM webhook_notification WHERE state = 'DELIVERED'", Integer.class) == 81);
        assertThat(hanging).allSatisfy(project -> assertThat(circuit(project, "closed")).isTrue());
        Map<String, List<Long>> acceptedOrderBySession = partners.answers().stream()
                .filter(answer -> answer.status() == 200 && sessionOf.containsKey(UUID.fromString(answer.request().webhookId())))
                .collect(Collectors.groupingBy(answer -> sessionOf.get(UUID.fromString(answer.request().webhookId())),
                        Collectors.mapping(answer -> sequenceOf(UUID.fromString(answer.request().webhookId())),
                                Collectors.toList())));
        assertThat(acceptedOrderBySession).hasSize(40)
                .allSatisfy((session, sequences) -> assertThat(sequences).as(session).containsExactly(1L, 2L));
    }

    @Test
    void whileAPartnersCircuitIsOpenItsNotificationsAreNotSentAndAreParkedWhenTheirWindowEnds() {
        endpoint("broken");
        partners.answer("broken", request -> 500);
        List<UUID> ids = new ArrayList<>();
        for (int session = 1; session <= 4; session++) {
            ids.add(notification("broken", "ps_" + session, 1));
        }

        startDispatcher(Map.of("retry-window", "2s",
                "circuit-breaker.failure-threshold", "2",
                "circuit-breaker.open-interval", "30s",
                "circuit-breaker.max-open-interval", "30s"));

        await().atMost(DELIVERY).until(() -> ids.stream().allMatch(id -> state(id).equals("PARKED")));
        assertThat(circuit("broken", "open")).isTrue();
        assertThat(ids).allSatisfy(id -> {
            assertThat(attempts(id)).as("sent once, before the circuit opened").singleElement()
                    .isEqualTo(new Attempt(1, 500, "HTTP 500"));
            assertThat(row(id).lastError()).startsWith("not sent: the partner's endpoint failed 2 attempts in a row "
                    + "and its circuit is open; the retry window ended");
        });
        assertThat(partners.requests()).hasSize(4);
        assertThat(count(WebhookMetrics.PARKED)).isEqualTo(4);
    }

    @Test
    void anOperatorsRedeliveryLetsAProbeThroughAnOpenCircuitAtOnce() {
        endpoint("flaky");
        AtomicBoolean up = new AtomicBoolean();
        partners.answer("flaky", request -> up.get() ? 200 : 500);
        List<UUID> ids = new ArrayList<>();
        for (int session = 1; session <= 3; session++) {
            ids.add(notification("flaky", "ps_" + session, 1));
        }
        WebhookDispatcher dispatcher = startDispatcher(Map.of("circuit-breaker.failure-threshold", "2",
                "circuit-breaker.open-interval", "60s", "circuit-breaker.max-open-interval", "60s"));
        await().atMost(DELIVERY).until(() -> circuit("flaky", "open"));
        up.set(true);
        int sent = partners.requests().size();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(1))
                .until(() -> partners.requests().size() == sent);

        dispatcher.on(new NotificationsRedelivered(Set.of("flaky")));

        await().atMost(DELIVERY).until(() -> ids.stream().allMatch(id -> state(id).equals("DELIVERED")));
        assertThat(circuit("flaky", "closed")).isTrue();
    }

    private WebhookDispatcher startDispatcher(Map<String, String> settings) {
        return startDispatcher(settings, InetAddress::getAllByName);
    }

    private WebhookDispatcher startDispatcher(Map<String, String> settings, WebhookDestinations.Resolver resolver) {
        return startDispatcher(settings, resolver, url -> false);
    }

    private WebhookDispatcher startDispatcher(Map<String, String> settings, WebhookDestinations.Resolver resolver,
                                              Predicate<URI> ownInbox) {
        WebhookProperties properties = TestProperties.fast(settings);
        WebhookDispatcher dispatcher = new WebhookDispatcher(
                new DeliveryStore(DB.jdbc(), DB.transactionManager()),
                new WebhookSender(SIGNER, properties, new WebhookDestinations(properties.allowedNetworks(), ownInbox,
                        resolver)),
                properties,
                new WebhookMetrics(meters));
        dispatchers.add(dispatcher);
        dispatcher.start();
        return dispatcher;
    }

    private void endpoint(String project) {
        outbox.saveEndpoint(project, partners.url(project), Instant.now());
    }

    private UUID notification(String project, String sessionId, long sequence) {
        UUID id = UUID.randomUUID();
        String body = "{\"type\":\"payment_finished\",\"session\":{\"id\":\"" + sessionId + "\",\"status\":\"accepted\","
                + "\"note\":\"sequence " + sequence + " \u00e9\"}}";
        outbox.add(new NewNotification(id, sessionId, project, WebhookType.PAYMENT_FINISHED, body, sequence, null));
        return id;
    }

    private double count(String counter) {
        return meters.find(counter).tag("type", "payment_finished").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    private long requestsTo(List<String> projects) {
        return partners.requests().stream().filter(request -> projects.contains(request.project())).count();
    }

    /** Whether the partner's circuit is in that state, as the gauge on the meter registry shows it. */
    private boolean circuit(String project, String state) {
        io.micrometer.core.instrument.Gauge gauge = meters.find(WebhookMetrics.CIRCUIT)
                .tags("project", project, "state", state).gauge();
        return gauge != null && gauge.value() == 1;
    }

    private static long sequenceOf(UUID id) {
        return DB.jdbc().queryForObject("SELECT session_sequence FROM webhook_notification WHERE id = ?", Long.class, id);
    }

    private long requestsOf(String project) {
        return partners.requests().stream().filter(request -> request.project().equals(project)).count();
    }

    private record Row(String state, int attempts, String lastError, String claimedBy) {
    }

    private record Attempt(int number, Integer httpStatus, String error) {
    }

    private static String state(UUID id) {
        return row(id).state();
    }

    private static Row row(UUID id) {
        return DB.jdbc().queryForObject(
                "SELECT state, attempts, last_error, claimed_by FROM webhook_notification WHERE id = ?",
                (rs, n) -> new Row(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4)), id);
    }

    private static String body(UUID id) {
        return DB.jdbc().queryForObject("SELECT body FROM webhook_notification WHERE id = ?", String.class, id);
    }

    private static OffsetDateTime deliveredAt(UUID id) {
        return DB.jdbc().queryForObject("SELECT delivered_at FROM webhook_notification WHERE id = ?",
                OffsetDateTime.class, id);
    }

    private static List<Attempt> attempts(UUID id) {
        return DB.jdbc().query(
                "SELECT attempt_number, http_status, error FROM webhook_attempt WHERE notification_id = ? ORDER BY attempt_number",
                (rs, n) -> new Attempt(rs.getInt(1), (Integer) rs.getObject(2), rs.getString(3)), id);
    }
}
