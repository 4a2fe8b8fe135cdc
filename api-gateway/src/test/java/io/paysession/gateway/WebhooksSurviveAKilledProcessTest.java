package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The crash test of issue 7: the application runs as its own JVM, partners' webhooks cannot be
 * delivered (the endpoint is down), and the process is killed with SIGKILL, one payment still being
 * authorized. Started again on the same data directory, it delivers every webhook at least once, each
 * signed with the service key, duplicates with the same webhook id, each session's in event order.
 */
class WebhooksSurviveAKilledProcessTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Path dataDirectory = TestServiceProperties.newDataDirectory("payments-crash");
    private final ServiceProcess service = new ServiceProcess(dataDirectory, Map.of(
            "payments.webhooks.initial-retry-interval", "300ms",
            "payments.webhooks.max-retry-interval", "1s",
            // a send cut off by the kill is claimed again this long after it started
            "payments.webhooks.claim-lease", "3s"));
    private volatile String servicePublicKey;
    private WebhookReceiver webhooks;

    @AfterEach
    void stop() {
        if (webhooks != null) {
            webhooks.close();
        }
        service.close();
    }

    @Test
    void everyWebhookPendingWhenTheProcessIsKilledArrivesSignedAfterTheRestart() {
        service.start();
        ServiceClient beforeCrash = new ServiceClient(service.baseUrl());
        servicePublicKey = beforeCrash.servicePublicKey();
        int endpointPort = WebhookReceiver.freePort();
        TestPartner partner = beforeCrash.register(new TestPartner("crash-shop"),
                WebhookReceiver.url(endpointPort, "crash-shop"));

        Map<String, List<String>> expected = new LinkedHashMap<>();
        for (String card : List.of("4242424242424242", "5555555555554444", "4000000000000002")) {
            String sessionId = ServiceClient.readyToConfirm(partner, card);
            ServiceClient.confirm(partner, sessionId);
            expected.put(sessionId, List.of("ready_to_confirm", "payment_finished"));
        }
        expected.put(ServiceClient.readyToConfirm(partner, "2200000000000004"), List.of("ready_to_confirm"));
        // 7 pending: each ready_to_confirm failed at least once, each payment_finished waits behind it
        await().atMost(WAIT).until(() -> pendingWithEveryReadyToConfirmFailed(beforeCrash, partner) == 7);

        // the last payment is confirmed and the process killed at once: its authorization may be under way
        String lastSession = ServiceClient.readyToConfirm(partner, "4242424242424242");
        ServiceClient.confirm(partner, lastSession);
        expected.put(lastSession, List.of("ready_to_confirm", "payment_finished"));
        service.kill();
        ProcessHandle orphanedPostgres = service.postgres().orElseThrow(() ->
                new AssertionError("a killed JVM leaves its PostgreSQL running"));

        webhooks = new WebhookReceiver(() -> servicePublicKey, endpointPort);
        service.start();

        assertThat(orphanedPostgres.isAlive()).as("the restart stopped the PostgreSQL of the killed process").isFalse();
        assertThat(service.output(2)).contains("Stopping the PostgreSQL (pid " + orphanedPostgres.pid() + ")");
        ServiceClient restarted = new ServiceClient(service.baseUrl());
        assertThat(restarted.servicePublicKey()).as("the same service key after the crash").isEqualTo(servicePublicKey);
        await().atMost(WAIT).until(() -> expected.entrySet().stream().allMatch(session ->
                webhooks.forSession(session.getKey()).stream().map(Received::type).collect(Collectors.toSet())
                        .containsAll(session.getValue())));

        assertThat(webhooks.all()).allSatisfy(webhook -> assertThat(webhook.signatureValid())
                .as("verifies with the service public key: " + webhook.rawBody()).isTrue());
        Map<String, Set<String>> notificationsById = webhooks.all().stream().collect(Collectors.groupingBy(
                Received::webhookId, Collectors.mapping(webhook -> webhook.sessionId() + " " + webhook.type(),
                        Collectors.toSet())));
        assertThat(notificationsById).as("one id per notification, the same on every duplicate").hasSize(9)
                .allSatisfy((id, notifications) -> assertThat(notifications).hasSize(1));
        expected.forEach((sessionId, types) -> assertThat(firstArrivals(sessionId)).as(sessionId).isEqualTo(types));
        expected.keySet().forEach(this::assertNothingOvertookReadyToConfirm);
        assertThat(webhooks.forSession(lastSession).get(1).session().path("status").asText()).isEqualTo("accepted");

        await().atMost(WAIT).untilAsserted(() -> assertThat(notifications(restarted, partner, "delivered"))
                .hasSize(9));
        List<String> ids = new ArrayList<>();
        notifications(restarted, partner, "delivered").forEach(notification -> ids.add(notification.path("id").asText()));
        assertThat(ids).containsExactlyInAnyOrderElementsOf(notificationsById.keySet());
        assertThat(restarted.prometheusCounter("payments_webhooks_delivered_total", "type=\"ready_to_confirm\""))
                .isEqualTo(5.0);
        assertThat(restarted.prometheusCounter("payments_webhooks_delivered_total", "type=\"payment_finished\""))
                .isEqualTo(4.0);
    }

    /**
     * Issue 17: a notification is written in the transaction that stores its event, so a process killed after that
     * commit and before any send still sends it once started again. The first run writes the outbox but sends
     * nothing ({@code payments.webhooks.dispatch=false}); the endpoint listens all along and receives nothing from it.
     */
    @Test
    void aWebhookWhoseEventWasCommittedLeavesAfterARestartThatCameBeforeItsSend() {
        service.set("payments.webhooks.dispatch", false);
        service.start();
        ServiceClient beforeCrash = new ServiceClient(service.baseUrl());
        servicePublicKey = beforeCrash.servicePublicKey();
        int endpointPort = WebhookReceiver.freePort();
        webhooks = new WebhookReceiver(() -> servicePublicKey, endpointPort);
        TestPartner partner = beforeCrash.register(new TestPartner("restart-shop"),
                WebhookReceiver.url(endpointPort, "restart-shop"));
        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");
        ServiceClient.confirm(partner, sessionId);
        await().atMost(WAIT).until(() -> "accepted".equals(partner.post("/api/v1/session/status",
                ServiceClient.sessionRef(sessionId)).session().path("status").asText()));

        List<JsonNode> pending = notifications(beforeCrash, partner, "pending");
        assertThat(pending).extracting(notification -> notification.path("type").asText())
                .containsExactlyInAnyOrder("ready_to_confirm", "payment_finished");
        assertThat(pending).allSatisfy(notification -> assertThat(notification.path("attempt_count").asInt()).isZero());
        service.kill();
        assertThat(webhooks.requests()).as("nothing was sent before the kill").isEmpty();

        service.set("payments.webhooks.dispatch", true);
        service.start();

        await().atMost(WAIT).until(() -> webhooks.forSession(sessionId).size() == 2);
        assertThat(webhooks.forSession(sessionId)).extracting(Received::type)
                .containsExactly("ready_to_confirm", "payment_finished");
        assertThat(webhooks.all()).allSatisfy(webhook -> assertThat(webhook.signatureValid()).isTrue());
        assertThat(webhooks.forSession(sessionId).get(1).session().path("status").asText()).isEqualTo("accepted");
    }

    /** The types of the session's webhooks in the order each first reached the partner, accepted or not. */
    private List<String> firstArrivals(String sessionId) {
        List<String> types = new ArrayList<>();
        webhooks.requests().stream()
                .filter(request -> request.sessionId().equals(sessionId))
                .map(WebhookReceiver.Request::type)
                .forEach(type -> {
                    if (!types.contains(type)) {
                        types.add(type);
                    }
                });
        return types;
    }

    /** No payment_finished of the session reached the partner before its ready_to_confirm was accepted. */
    private void assertNothingOvertookReadyToConfirm(String sessionId) {
        int readyAccepted = webhooks.forSession(sessionId).stream()
                .filter(webhook -> webhook.type().equals("ready_to_confirm"))
                .mapToInt(Received::arrival).min().orElseThrow();
        assertThat(webhooks.requests()).filteredOn(request -> request.sessionId().equals(sessionId)
                        && request.type().equals("payment_finished"))
                .allSatisfy(request -> assertThat(request.order()).as(sessionId).isGreaterThan(readyAccepted));
    }

    /** The partner's pending notifications, 0 while a ready_to_confirm among them has not failed yet. */
    private static int pendingWithEveryReadyToConfirmFailed(ServiceClient client, TestPartner partner) {
        List<JsonNode> pending = notifications(client, partner, "pending");
        boolean readyOnesFailed = pending.stream()
                .filter(notification -> notification.path("type").asText().equals("ready_to_confirm"))
                .allMatch(notification -> notification.path("attempt_count").asInt() > 0);
        return readyOnesFailed ? pending.size() : 0;
    }

    private static List<JsonNode> notifications(ServiceClient client, TestPartner partner, String state) {
        Answer answer = client.admin("GET", "/admin/v1/webhooks?project=" + partner.project() + "&state=" + state);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<JsonNode> list = new ArrayList<>();
        answer.body().path("webhooks").forEach(list::add);
        return list;
    }
}
