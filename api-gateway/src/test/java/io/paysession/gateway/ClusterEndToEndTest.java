package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.Cluster;
import io.paysession.gateway.support.FaultyRails;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three JVMs of the service on one PostgreSQL (issue 19): lifecycles of every method that waits on the payer or on a
 * deadline, each step sent to another node (init on one, confirm on the next, the payer on the third, status on the
 * first); every webhook sent once and in order, every deadline fired once, every money-moving rail call made once
 * (counted outside the JVMs, over all three nodes); the payment processor's segments spread over the nodes and
 * following a node that leaves and one that joins.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final String PAYMENT_PROCESS = "payment-process";

    private static Cluster cluster;
    private static ServiceProcess a;
    private static ServiceProcess b;
    private static ServiceProcess c;
    private static volatile String servicePublicKey;
    private static final WebhookReceiver WEBHOOKS = new WebhookReceiver(() -> servicePublicKey);
    private static final List<String> SESSIONS = new ArrayList<>();

    @BeforeAll
    static void startThreeNodes() {
        cluster = new Cluster("payments-cluster", Map.of("payments.test.faulty-rails", "true"));
        a = cluster.node("all");
        b = cluster.node("all");
        c = cluster.node("all");
        Cluster.start(a, b, c);
        servicePublicKey = new ServiceClient(a.baseUrl()).servicePublicKey();
    }

    @AfterAll
    static void stopCluster() {
        WEBHOOKS.close();
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void everyMethodThatWaitsOnThePayerOrADeadlineRunsWithItsStepsOnDifferentNodes() {
        TestPartner partner = register("cluster", "auto");
        TestPartner delayed = register("cluster-hold", "delayed");

        // deadlines first: they run out while the other lifecycles go on
        String qrLate = init(partner, a, qrApp());
        String walletLate = init(partner, b, wallet());
        confirmOn(c, partner, walletLate);

        String threeDs = init(partner, a, card("4000000000003220"));
        confirmOn(b, partner, threeDs);
        payerOn(c, action(threeDs), true);
        assertFinished(partner, threeDs, "accepted", a);

        String queried = init(partner, b, card("4000000000000119"));
        confirmOn(c, partner, queried);
        assertFinished(partner, queried, "accepted", a);
        assertThat(events(queried, "PaymentOutcomeQueryRequestedEvent")).as("the outcome query's deadline fired once")
                .isEqualTo(1);

        String wallet = init(partner, c, wallet());
        confirmOn(a, partner, wallet);
        payerOn(b, action(wallet), true);
        assertFinished(partner, wallet, "accepted", c);

        String bankApp = init(partner, a, bankApp());
        confirmOn(c, partner, bankApp);
        payerOn(b, action(bankApp), true);
        assertFinished(partner, bankApp, "accepted", a);

        String qr = init(partner, b, qrApp());
        confirmOn(a, partner, qr);
        payerOn(c, action(qr), true);
        assertFinished(partner, qr, "accepted", b);

        String fps = init(partner, c, fps());
        confirmOn(b, partner, fps);
        payerOn(a, WEBHOOKS.await(fps, "action_required", WAIT).session().path("acquiring_payments").path(0)
                .path("customer_interaction").path("inform").path("qr").path("content").asText(), true);
        assertFinished(partner, fps, "accepted", c);

        String held = init(delayed, a, card("4242424242424242"));
        confirmOn(b, delayed, held);
        WEBHOOKS.await(held, "ready_to_capture", WAIT);
        Answer captured = delayed.sameKeysAt(c.baseUrl()).post("/api/v1/session/capture", sessionRef(held));
        assertThat(captured.status()).as(captured.toString()).isEqualTo(200);
        assertFinished(delayed, held, "accepted", a);

        ObjectNode refund = sessionRef(threeDs);
        refund.putObject("amount_details").put("amount", 2500).put("currency", "rub");
        Answer refunded = partner.sameKeysAt(c.baseUrl()).post("/api/v1/session/refund", refund);
        assertThat(refunded.status()).as(refunded.toString()).isEqualTo(200);
        JsonNode afterRefund = WEBHOOKS.await(threeDs, "payment_refunded", WAIT).session();
        assertThat(afterRefund.path("acquiring_payments").path(0).path("refunds").path(0).path("status").asText())
                .isEqualTo("accepted");

        String payout = init(partner, b, "/api/v1/session/init/payout", cardPayout());
        confirmOn(c, partner, payout);
        assertFinished(partner, payout, "accepted", a);

        JsonNode timedOut = WEBHOOKS.await(qrLate, "payment_finished", WAIT).session();
        assertThat(timedOut.path("error").path("code").asText()).isEqualTo("confirm_timeout");
        assertThat(events(qrLate, "SessionCancelledEvent")).as("the confirmation deadline fired once").isEqualTo(1);
        JsonNode payerLate = WEBHOOKS.await(walletLate, "payment_finished", WAIT).session();
        assertThat(payerLate.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("action_timeout");
        assertThat(events(walletLate, "PaymentFailedEvent")).as("the payer's deadline fired once").isEqualTo(1);

        assertEveryWebhookOnceAndInOrder(Map.of(
                threeDs, List.of("ready_to_confirm", "action_required", "payment_finished", "payment_refunded"),
                queried, List.of("ready_to_confirm", "payment_finished"),
                wallet, List.of("ready_to_confirm", "action_required", "payment_finished"),
                bankApp, List.of("ready_to_confirm", "action_required", "payment_finished"),
                qr, List.of("ready_to_confirm", "action_required", "payment_finished"),
                fps, List.of("ready_to_confirm", "action_required", "payment_finished"),
                held, List.of("ready_to_confirm", "ready_to_capture", "payment_finished"),
                payout, List.of("ready_to_confirm", "payment_finished"),
                qrLate, List.of("ready_to_confirm", "payment_finished"),
                walletLate, List.of("ready_to_confirm", "action_required", "payment_finished")));
        assertEveryMoneyMovingCallMadeOnce();
    }

    @Test
    @Order(2)
    void thePaymentProcessorsSegmentsAreSpreadOverTheNodesAndFollowANodeThatLeavesAndOneThatJoins() {
        awaitSpreadOver(List.of(a, b, c));
        assertThat(cluster.segmentsByOwner("settlement")).as("the ledger's one segment, on one node").hasSize(1)
                .doesNotContainKey("null");

        c.stop();
        Duration tookOver = awaitSpreadOver(List.of(a, b));
        System.out.println("ClusterEndToEndTest: a node that stopped: its segments taken over in " + tookOver.toMillis()
                + " ms");

        c.start();
        Duration spread = awaitSpreadOver(List.of(a, b, c));
        System.out.println("ClusterEndToEndTest: a node that joined: segments spread again in " + spread.toMillis()
                + " ms");
        TestPartner partner = register("cluster-after", "auto");
        String afterJoin = init(partner, c, card("4242424242424242"));
        confirmOn(a, partner, afterJoin);
        assertFinished(partner, afterJoin, "accepted", b);
    }

    /**
     * Waits until the payment processor's 8 segments are all claimed, by exactly {@code nodes}, none holding more than
     * its share (8 divided by the nodes, rounded up); how long that took.
     */
    private static Duration awaitSpreadOver(List<ServiceProcess> nodes) {
        long started = System.nanoTime();
        List<String> owners = nodes.stream().map(Cluster::tokenOwner).toList();
        int share = (8 + nodes.size() - 1) / nodes.size();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Map<String, Integer> held = cluster.segmentsByOwner(PAYMENT_PROCESS);
            assertThat(held.keySet()).as("owners of the segments: " + held).containsExactlyInAnyOrderElementsOf(owners);
            assertThat(held.values()).as("segments per node: " + held).allSatisfy(count ->
                    assertThat(count).isBetween(1, share));
        });
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private static TestPartner register(String name, String captureMode) {
        TestPartner partner = new TestPartner(name + "-" + UUID.randomUUID().toString().substring(0, 8));
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", WEBHOOKS.url(partner.project()))
                .put("capture_mode", captureMode);
        Answer answer = new ServiceClient(b.baseUrl()).admin("POST", "/admin/v1/partners", body.toString(),
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
        return partner;
    }

    private static String init(TestPartner partner, ServiceProcess node, ObjectNode body) {
        return init(partner, node, "/api/v1/session/init/payment", body);
    }

    private static String init(TestPartner partner, ServiceProcess node, String path, ObjectNode body) {
        body.put("metadata", "order " + UUID.randomUUID());
        Answer init = partner.sameKeysAt(node.baseUrl()).post(path, body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        SESSIONS.add(sessionId);
        assertThat(WEBHOOKS.await(sessionId, "ready_to_confirm", WAIT).signatureValid()).isTrue();
        return sessionId;
    }

    private static void confirmOn(ServiceProcess node, TestPartner partner, String sessionId) {
        Answer confirm = partner.sameKeysAt(node.baseUrl()).post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
    }

    /** The hosted page the payer is sent to, from the session's {@code action_required}. */
    private static String action(String sessionId) {
        return WEBHOOKS.await(sessionId, "action_required", WAIT).session().path("acquiring_payments").path(0)
                .path("customer_interaction").path("redirect").path("url").asText();
    }

    /** The payer answers the page on {@code node}, whichever node made the page's address. */
    private static void payerOn(ServiceProcess node, String interactionUrl, boolean approve) {
        String path = URI.create(interactionUrl).getPath() + (approve ? "/approve" : "/decline");
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(node.baseUrl() + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    }

    /** The session ends with that status, as its {@code payment_finished} and a status asked of {@code node} say. */
    private static void assertFinished(TestPartner partner, String sessionId, String status, ServiceProcess node) {
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WAIT);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("status").asText()).as(sessionId).isEqualTo(status);
        Answer asked = partner.sameKeysAt(node.baseUrl()).post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(asked.session().path("status").asText()).as(sessionId + " on another node").isEqualTo(status);
    }

    private static void assertEveryWebhookOnceAndInOrder(Map<String, List<String>> expected) {
        expected.forEach((sessionId, types) -> {
            List<Received> received = WEBHOOKS.forSession(sessionId);
            assertThat(received).extracting(Received::type).as(sessionId).containsExactlyElementsOf(types);
            assertThat(received).extracting(Received::webhookId).as(sessionId).doesNotHaveDuplicates();
            assertThat(received).allSatisfy(webhook -> assertThat(webhook.signatureValid()).isTrue());
        });
    }

    /** Over the three nodes' logs: each authorization, capture, refund and payout called once, by one node. */
    private static void assertEveryMoneyMovingCallMadeOnce() {
        List<String> calls = new ArrayList<>();
        for (ServiceProcess node : List.of(a, b, c)) {
            calls.addAll(FaultyRails.calls(node.dataDirectory()));
        }
        Map<String, Long> times = calls.stream().filter(line -> line.endsWith(" call"))
                .collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
        assertThat(times).as("money-moving calls").isNotEmpty()
                .allSatisfy((call, count) -> assertThat(count).as(call).isEqualTo(1));
        long authorizations = times.keySet().stream().filter(call -> call.startsWith("authorize ")).count();
        assertThat(authorizations).as("one authorization per card, wallet, bank, QR and instant payment").isEqualTo(8);
    }

    /** How many events of {@code type} the session's stream holds. */
    private static long events(String sessionId, String type) {
        List<String> types = cluster.jdbc().queryForList("select payload_type from domain_event_entry"
                + " where aggregate_identifier = ? order by sequence_number", String.class, sessionId);
        long count = types.stream().filter(name -> name.endsWith("." + type)).count();
        System.out.println("ClusterEndToEndTest: " + sessionId + " " + types.stream()
                .map(name -> name.substring(name.lastIndexOf('.') + 1)).toList());
        return count;
    }

    private static ObjectNode sessionRef(String sessionId) {
        return JsonNodeFactory.instance.objectNode().put("session_id", sessionId);
    }

    private static ObjectNode card(String number) {
        return EndToEndTestBase.cardPayment(number, "123");
    }

    private static ObjectNode payment(ObjectNode details) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("payment_details", details);
        body.putObject("amount_details").put("amount", 10000).put("currency", "rub");
        body.putObject("customer").put("reference", "customer-7");
        return body;
    }

    private static ObjectNode wallet() {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "wallet");
        details.putObject("wallet").put("type", "ewallet");
        return payment(details);
    }

    private static ObjectNode bankApp() {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "internet_banking");
        details.putObject("internet_banking").put("type", "bank_app_pay");
        return payment(details);
    }

    private static ObjectNode qrApp() {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "internet_banking");
        details.putObject("internet_banking").put("type", "qr_app_pay").putObject("qr_app_pay")
                .put("phone", "79261234567");
        return payment(details);
    }

    private static ObjectNode fps() {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "faster_payment_system");
        details.putObject("faster_payment_system").put("description", "Order 42");
        return payment(details);
    }

    private static ObjectNode cardPayout() {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_method").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242");
        body.putObject("amount_details").put("amount", 150_000).put("currency", "rub");
        body.putObject("participant_details").putObject("recipient").put("full_name", "John Doe");
        return body;
    }
}
