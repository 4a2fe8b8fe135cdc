package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Behaviour;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhook delivery of the running application to partner endpoints that misbehave the ways real ones
 * do, each checked as the partner and the operator see it: what arrives (signed, with a stable webhook
 * id), and what the admin API shows of every attempt. The shared test application retries after
 * 500 ms, doubling, with a 2 s attempt time-out.
 */
class WebhookDeliveryEndToEndTest extends EndToEndTestBase {

    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

    @Test
    void aReceiverThatFailsTheFirstAttemptsGetsTheSameWebhookUntilItAcceptsIt() {
        TestPartner partner = registeredPartner("fails-first");
        WEBHOOKS.behave(partner.project(), Behaviour.failFirst(3, 500));
        double deliveredBefore = metric("payments.webhooks.delivered", "type:ready_to_confirm");
        double retriedBefore = metric("payments.webhooks.retried", "type:ready_to_confirm");
        double failedAttemptsBefore = metric("payments.webhooks.delivery.latency", "outcome:http_error");

        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");
        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

        assertThat(ready.signatureValid()).isTrue();
        assertThat(WEBHOOKS.requestsFor(partner.project())).hasSize(4)
                .allSatisfy(request -> {
                    assertThat(request.webhookId()).isEqualTo(ready.webhookId());
                    assertThat(request.signatureValid()).isTrue();
                });
        JsonNode notification = awaitState(sessionId, "ready_to_confirm", "delivered");
        assertThat(notification.path("id").asText()).isEqualTo(ready.webhookId());
        assertThat(notification.path("attempts")).extracting(attempt -> attempt.path("http_status").asInt())
                .containsExactly(500, 500, 500, 200);
        assertThat(notification.path("attempts").get(0).path("error").asText()).isEqualTo("HTTP 500");
        assertThat(notification.path("attempts").get(3).has("error")).as("no error on success, not null").isFalse();
        assertThat(notification.path("attempts")).allSatisfy(attempt -> {
            assertThat(attempt.path("latency_ms").isIntegralNumber()).isTrue();
            assertThat(attempt.path("attempted_at").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
        });
        assertThat(metric("payments.webhooks.delivered", "type:ready_to_confirm")).isGreaterThanOrEqualTo(deliveredBefore + 1);
        assertThat(metric("payments.webhooks.retried", "type:ready_to_confirm")).isGreaterThanOrEqualTo(retriedBefore + 3);
        assertThat(metric("payments.webhooks.delivery.latency", "outcome:http_error"))
                .isGreaterThanOrEqualTo(failedAttemptsBefore + 3);
    }

    @Test
    void aReceiverThatAnswersAfterTheAttemptTimeoutGetsTheSameWebhookAgain() {
        TestPartner partner = registeredPartner("slow");
        WEBHOOKS.behave(partner.project(), Behaviour.slowFirst(ATTEMPT_TIMEOUT.plusSeconds(1)));

        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");

        JsonNode notification = awaitState(sessionId, "ready_to_confirm", "delivered");
        String webhookId = notification.path("id").asText();
        JsonNode timedOut = notification.path("attempts").get(0);
        assertThat(timedOut.has("http_status")).as("no status: the answer came too late").isFalse();
        assertThat(timedOut.path("error").asText()).contains("no answer within 2000 ms");
        assertThat(timedOut.path("latency_ms").asLong()).isGreaterThanOrEqualTo(ATTEMPT_TIMEOUT.toMillis() - 100);
        assertThat(notification.path("attempts").get(1).path("http_status").asInt()).isEqualTo(200);
        assertThat(notification.path("attempts")).hasSize(2);
        assertThat(WEBHOOKS.requestsFor(partner.project())).hasSize(2)
                .allSatisfy(request -> assertThat(request.webhookId()).isEqualTo(webhookId));
    }

    @Test
    void aReceiverThatIsDownAtFirstGetsItsWebhooksOnceItComesUp() {
        int port = WebhookReceiver.freePort();
        TestPartner partner = registeredPartner("down", project -> WebhookReceiver.url(port, project));
        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");
        await().atMost(WEBHOOK_WAIT).until(() -> notification(sessionId, "ready_to_confirm")
                .path("attempts").size() >= 2);

        try (WebhookReceiver cameUp = new WebhookReceiver(() -> servicePublicKey, port)) {
            Received ready = cameUp.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

            assertThat(ready.signatureValid()).isTrue();
            JsonNode notification = awaitState(sessionId, "ready_to_confirm", "delivered");
            assertThat(ready.webhookId()).isEqualTo(notification.path("id").asText());
            JsonNode attempts = notification.path("attempts");
            assertThat(attempts.get(0).has("http_status")).as("refused connection: no status").isFalse();
            assertThat(attempts.get(0).path("error").asText()).isNotBlank();
            assertThat(attempts.get(attempts.size() - 1).path("http_status").asInt()).isEqualTo(200);
        }
    }

    @Test
    void laterWebhooksOfASessionArriveOnlyAfterAnEarlierOneThatIsBeingRetried() {
        TestPartner partner = registeredPartner("ordered");
        WEBHOOKS.behave(partner.project(), request ->
                WebhookReceiver.Reply.now(request.type().equals("ready_to_confirm") && request.attempt() <= 3 ? 503 : 200));
        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");
        // the partner confirms from session/status, without waiting for ready_to_confirm
        ServiceClient.confirm(partner, sessionId);

        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);

        Received ready = WEBHOOKS.forSession(sessionId).stream()
                .filter(webhook -> webhook.type().equals("ready_to_confirm")).findFirst().orElseThrow();
        assertThat(WEBHOOKS.requestsFor(partner.project())).extracting(WebhookReceiver.Request::type)
                .containsExactly("ready_to_confirm", "ready_to_confirm", "ready_to_confirm", "ready_to_confirm",
                        "payment_finished");
        assertThat(finished.arrival()).isGreaterThan(ready.arrival());
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        Instant finishedStored = Instant.parse(notification(sessionId, "payment_finished").path("created_at").asText());
        assertThat(finishedStored).as("payment_finished was ready to go while ready_to_confirm was being retried")
                .isBefore(ready.receivedAt());
    }

    @Test
    void aHangingEndpointOfOnePartnerDoesNotDelayTheWebhooksOfAnother() {
        try (WebhookReceiver hanging = new WebhookReceiver(() -> servicePublicKey)) {
            TestPartner stuck = registeredPartner("hangs", hanging::url);
            hanging.behave(stuck.project(), Behaviour.hang());
            for (int session = 0; session < 10; session++) {
                stuck.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"));
            }
            // the per-partner share of the senders (8) is taken by requests that never end
            await().atMost(WEBHOOK_WAIT).until(() -> hanging.requests().size() >= 8);

            TestPartner other = registeredPartner("unaffected");
            Answer init = other.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"));
            String sessionId = init.session().path("id").asText();
            Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

            Instant stored = Instant.parse(notification(sessionId, "ready_to_confirm").path("created_at").asText());
            assertThat(Duration.between(stored, ready.receivedAt())).as("from the outbox to the partner")
                    .isLessThan(Duration.ofSeconds(1));
            assertThat(ready.signatureValid()).isTrue();
            assertThat(hanging.requests()).filteredOn(request -> request.receivedAt().isBefore(ready.receivedAt()))
                    .as("the hanging partner held its share of the senders").hasSizeGreaterThanOrEqualTo(8);
        }
    }

    @Test
    void aHangingPartnersCircuitOpensAndTheMetricsShowIt() {
        try (WebhookReceiver hanging = new WebhookReceiver(() -> servicePublicKey)) {
            TestPartner stuck = registeredPartner("circuit", hanging::url);
            hanging.behave(stuck.project(), Behaviour.hang());
            for (int session = 0; session < 6; session++) {
                stuck.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"));
            }

            // five attempts in a row ended at the time-out: open, then half-open for one probe, open again, ...
            await().atMost(WEBHOOK_WAIT).until(() -> circuit(stuck.project(), "open") + circuit(stuck.project(), "half_open") == 1);
            assertThat(circuit(stuck.project(), "closed")).isZero();
            assertThat(hanging.requests()).as("the attempts that opened it").hasSizeGreaterThanOrEqualTo(5);
        }
    }

    /** {@code payments.webhooks.circuit.state} of the partner's circuit in that state: 1 if it is in it, else 0. */
    private double circuit(String project, String state) {
        Answer answer = admin("GET", "/actuator/metrics/payments.webhooks.circuit.state?tag=project:" + project
                + "&tag=state:" + state, null, TestServiceProperties.ADMIN_TOKEN);
        if (answer.status() == 404) {
            return 0;
        }
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body().path("measurements").get(0).path("value").asDouble();
    }

    /** The session's notification of that type as the admin API lists it; a missing node until it exists. */
    private JsonNode notification(String sessionId, String type) {
        Answer answer = admin("GET", "/admin/v1/webhooks?session_id=" + sessionId, null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<JsonNode> matching = new ArrayList<>();
        answer.body().path("webhooks").forEach(webhook -> {
            if (webhook.path("type").asText().equals(type)) {
                matching.add(webhook);
            }
        });
        assertThat(matching).as(answer.toString()).hasSizeLessThanOrEqualTo(1);
        return matching.isEmpty() ? MissingNode.getInstance() : matching.get(0);
    }

    private JsonNode awaitState(String sessionId, String type, String state) {
        await().atMost(WEBHOOK_WAIT).until(() -> notification(sessionId, type).path("state").asText().equals(state));
        return notification(sessionId, type);
    }

    /** A meter's count from {@code /actuator/metrics}, 0 while it has not been recorded yet. */
    private double metric(String name, String tag) {
        Answer answer = admin("GET", "/actuator/metrics/" + name + "?tag=" + tag, null, TestServiceProperties.ADMIN_TOKEN);
        if (answer.status() == 404) {
            return 0;
        }
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        for (JsonNode measurement : answer.body().path("measurements")) {
            if (measurement.path("statistic").asText().equals("COUNT")) {
                return measurement.path("value").asDouble();
            }
        }
        throw new AssertionError("no COUNT in " + answer);
    }
}
