package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Behaviour;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A partner endpoint that answers 500 forever: its webhooks are parked when the retry window ends, and
 * an operator delivers them with the admin API once the endpoint works. Its own process, because the
 * window here (3 s) would park the webhooks of slow receivers in the shared test application.
 */
class ParkedWebhooksRedeliveryTest {

    private static final Duration RETRY_WINDOW = Duration.ofSeconds(3);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ServiceProcess service = new ServiceProcess(TestServiceProperties.newDataDirectory("payments-parking"),
            Map.of("payments.webhooks.retry-window", RETRY_WINDOW.toMillis() + "ms",
                    "payments.webhooks.initial-retry-interval", "200ms",
                    "payments.webhooks.max-retry-interval", "1s",
                    // about parking and redelivery of each notification on its own: a partner failing every attempt
                    // would otherwise have its circuit opened (WebhookDispatcherTest covers that)
                    "payments.webhooks.circuit-breaker.failure-threshold", "1000"));
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
    void webhooksRefusedWith500ForeverAreParkedAfterTheWindowAndDeliveredWhenTheAdminRedeliversThem() {
        service.start();
        ServiceClient client = new ServiceClient(service.baseUrl());
        servicePublicKey = client.servicePublicKey();
        webhooks = new WebhookReceiver(() -> servicePublicKey);
        TestPartner partner = new TestPartner("parking-shop");
        webhooks.behave(partner.project(), Behaviour.always(500));
        client.register(partner, webhooks.url(partner.project()));
        String first = ServiceClient.readyToConfirm(partner, "4242424242424242");
        String second = ServiceClient.readyToConfirm(partner, "5555555555554444");

        await().atMost(WAIT).until(() -> list(client, "project=" + partner.project() + "&state=parked").size() == 2);

        JsonNode parked = only(list(client, "session_id=" + first));
        assertThat(parked.path("state").asText()).isEqualTo("parked");
        assertThat(parked.path("type").asText()).isEqualTo("ready_to_confirm");
        assertThat(parked.path("last_error").asText()).isEqualTo("HTTP 500");
        assertThat(parked.path("attempts")).hasSizeGreaterThanOrEqualTo(3).allSatisfy(attempt -> {
            assertThat(attempt.path("http_status").asInt()).isEqualTo(500);
            assertThat(attempt.path("error").asText()).isEqualTo("HTTP 500");
            assertThat(attempt.path("latency_ms").isIntegralNumber()).isTrue();
            assertThat(attempt.path("redelivery").asInt()).isZero();
        });
        Instant created = Instant.parse(parked.path("created_at").asText());
        Instant lastAttempt = Instant.parse(last(parked.path("attempts")).path("attempted_at").asText());
        assertThat(Duration.between(created, lastAttempt)).as("tried until the window ended")
                .isGreaterThanOrEqualTo(RETRY_WINDOW);
        assertThat(webhooks.all()).as("nothing was accepted").isEmpty();
        assertThat(client.prometheusCounter("payments_webhooks_parked_total", "type=\"ready_to_confirm\"")).isEqualTo(2.0);
        assertThat(client.prometheusCounter("payments_webhooks_retried_total", "type=\"ready_to_confirm\""))
                .isGreaterThanOrEqualTo(4.0);

        webhooks.behave(partner.project(), Behaviour.always(200));
        String firstId = parked.path("id").asText();
        Answer redelivered = client.admin("POST", "/admin/v1/webhooks/" + firstId + "/redeliver");

        assertThat(redelivered.status()).as(redelivered.toString()).isEqualTo(200);
        assertThat(redelivered.body().path("webhook").path("state").asText()).isEqualTo("pending");
        Received delivered = webhooks.await(first, "ready_to_confirm", WAIT);
        assertThat(delivered.webhookId()).isEqualTo(firstId);
        assertThat(delivered.signatureValid()).isTrue();
        assertThat(only(list(client, "session_id=" + second)).path("state").asText())
                .as("a redelivery by id touches no other notification").isEqualTo("parked");

        Answer parkedOfPartner = client.admin("POST", "/admin/v1/webhooks/redeliver-parked?project=" + partner.project());

        assertThat(parkedOfPartner.status()).as(parkedOfPartner.toString()).isEqualTo(200);
        String secondId = only(list(client, "session_id=" + second)).path("id").asText();
        assertThat(parkedOfPartner.body().path("redelivered").asInt()).isEqualTo(1);
        assertThat(parkedOfPartner.body().path("webhook_ids").get(0).asText()).isEqualTo(secondId);
        assertThat(webhooks.await(second, "ready_to_confirm", WAIT).webhookId()).isEqualTo(secondId);

        await().atMost(WAIT).until(() -> list(client, "project=" + partner.project() + "&state=delivered").size() == 2);
        JsonNode history = client.admin("GET", "/admin/v1/webhooks/" + firstId).body().path("webhook");
        assertThat(last(history.path("attempts")).path("http_status").asInt()).isEqualTo(200);
        assertThat(last(history.path("attempts")).path("redelivery").asInt()).isEqualTo(1);
        assertThat(history.path("redeliveries")).singleElement().satisfies(redelivery -> {
            assertThat(redelivery.path("requested_by").asText()).isEqualTo("admin");
            assertThat(redelivery.path("operation").asText()).isEqualTo("redeliver");
            assertThat(redelivery.path("previous_state").asText()).isEqualTo("parked");
        });
        assertThat(history.path("body").path("session").path("id").asText()).isEqualTo(first);
        assertThat(client.admin("GET", "/admin/v1/webhooks/" + secondId).body()
                .path("webhook").path("redeliveries").get(0).path("operation").asText()).isEqualTo("redeliver_parked");
    }

    private static List<JsonNode> list(ServiceClient client, String query) {
        Answer answer = client.admin("GET", "/admin/v1/webhooks?" + query);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<JsonNode> notifications = new ArrayList<>();
        answer.body().path("webhooks").forEach(notifications::add);
        return notifications;
    }

    private static JsonNode only(List<JsonNode> notifications) {
        assertThat(notifications).hasSize(1);
        return notifications.get(0);
    }

    private static JsonNode last(JsonNode array) {
        return array.get(array.size() - 1);
    }
}
