package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhook URLs into the service's own networks, as the operator registering partners and reading the attempt
 * log sees them. Its own process, started twice on the same data: first with the test set-up's allowance of
 * 127.0.0.0/8, then as a production node runs, with no allowance at all.
 */
class WebhookDestinationsEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String REFUSED = "webhook_url must not point at an internal address: ";

    private final ServiceProcess service = new ServiceProcess(TestServiceProperties.newDataDirectory("payments-destinations"),
            Map.of("payments.webhooks.initial-retry-interval", "200ms",
                    "payments.webhooks.max-retry-interval", "500ms"));
    private volatile String servicePublicKey;
    private final WebhookReceiver webhooks = new WebhookReceiver(() -> servicePublicKey);

    @AfterEach
    void stop() {
        webhooks.close();
        service.close();
    }

    @Test
    void internalWebhookUrlsAreRefusedAtRegistrationAndAtEveryAttemptAndTheOwnInboxNeedsNoAllowance() {
        service.start();
        ServiceClient client = new ServiceClient(service.baseUrl());
        servicePublicKey = client.servicePublicKey();
        TestPartner registeredWhileAllowed = client.register(new TestPartner("loopback-shop"),
                webhooks.url("loopback-shop"));

        Answer metadata = register(client, "metadata-shop", "http://169.254.169.254/latest/meta-data/");
        assertThat(metadata.status()).as("allowing 127.0.0.0/8 allows nothing else").isEqualTo(400);
        assertThat(metadata.errorCode()).isEqualTo("invalid_request");
        assertThat(metadata.errorDescription()).startsWith(REFUSED + "the address 169.254.169.254 (link-local, 169.254.0.0/16)");

        // the operator removes the allowance, as production runs
        service.kill();
        service.set("payments.webhooks.allowed-networks", "");
        service.start();
        client = new ServiceClient(service.baseUrl());

        for (String url : List.of(webhooks.url("new-shop"), "http://localhost:8080/hooks", "http://10.0.0.8/hooks",
                "http://[::ffff:127.0.0.1]/hooks", "http://[fd00::1]/hooks", "http://169.254.169.254/")) {
            Answer refused = register(client, "new-shop", url);
            assertThat(refused.status()).as(url + ": " + refused).isEqualTo(400);
            assertThat(refused.errorCode()).isEqualTo("invalid_request");
            assertThat(refused.errorDescription()).as(url).startsWith(REFUSED)
                    .contains("payments.webhooks.allowed-networks");
            assertThat(client.admin("GET", "/admin/v1/partners/new-shop").status()).as("not registered").isEqualTo(404);
        }
        assertThat(register(client, "new-shop", "http://localhost:8080/hooks").errorDescription())
                .contains("localhost resolves only to refused addresses");
        Answer update = client.admin("PUT", "/admin/v1/partners/" + registeredWhileAllowed.project(),
                "{\"webhook_url\":\"http://127.0.0.1:9/hooks\"}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(update.status()).as(update.toString()).isEqualTo(400);
        assertThat(update.errorDescription()).startsWith(REFUSED + "the address 127.0.0.1 (loopback, 127.0.0.0/8)");
        assertThat(client.admin("GET", "/admin/v1/partners/" + registeredWhileAllowed.project()).body()
                .path("partner").path("webhook_url").asText()).isEqualTo(webhooks.url("loopback-shop"));
        assertThat(register(client, "readme-shop", "https://shop.example/hooks").status())
                .as("the README's example: a host that does not resolve yet is checked at each attempt").isEqualTo(201);

        // the partner registered while loopback was allowed: every attempt is refused, none reaches it
        String refusedSession = ServiceClient.readyToConfirm(registeredWhileAllowed.at(service.baseUrl()), "4242424242424242");
        await().atMost(WAIT).until(() -> attempts(client(), refusedSession).size() >= 2);
        JsonNode notification = notifications(client(), refusedSession).get(0);
        assertThat(notification.path("state").asText()).isEqualTo("pending");
        assertThat(notification.path("attempts")).allSatisfy(attempt -> {
            assertThat(attempt.has("http_status")).isFalse();
            assertThat(attempt.path("error").asText()).startsWith(
                    "refused destination: the address 127.0.0.1 (loopback, 127.0.0.0/8); webhooks do not go to loopback");
        });
        assertThat(webhooks.requests()).as("no connection reached the partner's loopback endpoint").isEmpty();

        // the service's own sandbox inbox, on loopback, needs no allowance
        String inbox = service.baseUrl().replace("127.0.0.1", "localhost") + "/sandbox/webhooks/inbox-shop";
        TestPartner inboxShop = client.register(new TestPartner("inbox-shop"), inbox);
        String inboxSession = ServiceClient.readyToConfirm(inboxShop, "4242424242424242");
        await().atMost(WAIT).until(() -> inboxHas(inboxSession));
        JsonNode received = inboxEntries().get(0);
        assertThat(received.path("signature_valid").asBoolean()).isTrue();
        assertThat(received.path("body").path("type").asText()).isEqualTo("ready_to_confirm");
    }

    private ServiceClient client() {
        return new ServiceClient(service.baseUrl());
    }

    private static Answer register(ServiceClient client, String project, String webhookUrl) {
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("project", project)
                .put("public_key", new TestPartner(project).publicKeyPem())
                .put("webhook_url", webhookUrl);
        return client.admin("POST", "/admin/v1/partners", body.toString(), TestServiceProperties.ADMIN_TOKEN);
    }

    private static List<JsonNode> notifications(ServiceClient client, String sessionId) {
        Answer answer = client.admin("GET", "/admin/v1/webhooks?session_id=" + sessionId);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return iterable(answer.body().path("webhooks"));
    }

    private static List<JsonNode> attempts(ServiceClient client, String sessionId) {
        List<JsonNode> notifications = notifications(client, sessionId);
        return notifications.isEmpty() ? List.of() : iterable(notifications.get(0).path("attempts"));
    }

    private boolean inboxHas(String sessionId) {
        return inboxEntries().stream().anyMatch(entry -> entry.path("body").path("session").path("id").asText().equals(sessionId));
    }

    private List<JsonNode> inboxEntries() {
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(
                URI.create(service.baseUrl() + "/sandbox/webhooks/inbox-shop")).GET().build());
        assertThat(answer.status()).isEqualTo(200);
        return iterable(answer.body().path("webhooks"));
    }

    private static List<JsonNode> iterable(JsonNode array) {
        List<JsonNode> list = new ArrayList<>();
        array.forEach(list::add);
        return list;
    }
}
