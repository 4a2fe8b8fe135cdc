package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What operators and partners do against a service at a base URL: admin calls, payments, metrics. */
public final class ServiceClient {

    private final String baseUrl;

    public ServiceClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** An admin API call with the admin token ({@code token} {@code null}: without one). */
    public Answer admin(String method, String path, String json, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return TestPartner.exchange(request.build());
    }

    public Answer admin(String method, String path) {
        return admin(method, path, null, TestServiceProperties.ADMIN_TOKEN);
    }

    public String servicePublicKey() {
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl + "/service/public-key"))
                .GET().build());
        assertThat(answer.status()).isEqualTo(200);
        return answer.text();
    }

    /** Registers the partner through the admin API with its webhooks going to {@code webhookUrl}. */
    public TestPartner register(TestPartner partner, String webhookUrl) {
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", webhookUrl)
                .put("capture_mode", "auto");
        Answer answer = admin("POST", "/admin/v1/partners", body.toString(), TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
        return partner.at(baseUrl);
    }

    /**
     * Starts a card payment and waits, by polling {@code session/status} as a partner without working
     * webhooks would, until it waits for confirmation; the session id.
     */
    public static String readyToConfirm(TestPartner partner, String cardNumber) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_details").put("type", "card")
                .putObject("card").put("type", "bank_card").putObject("bank_card")
                .put("number", cardNumber).put("expiration_month", "12").put("expiration_year", "34")
                .put("security_code", "123");
        body.putObject("amount_details").put("amount", 10000).put("currency", "RUB");
        body.putObject("customer").put("reference", "customer-7");
        // each payment a body of its own, as an order reference makes it (a signed payment body runs once)
        body.put("metadata", "order " + UUID.randomUUID());
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> "confirm".equals(partner.post("/api/v1/session/status", sessionRef(sessionId))
                        .session().path("next_action").asText()));
        return sessionId;
    }

    public static Answer confirm(TestPartner partner, String sessionId) {
        Answer confirm = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        return confirm;
    }

    public static ObjectNode sessionRef(String sessionId) {
        return JsonNodeFactory.instance.objectNode().put("session_id", sessionId);
    }

    /**
     * The value of a counter as the Prometheus endpoint shows it (summed over the series that carry
     * {@code tag}), 0 if it has no series yet.
     */
    public double prometheusCounter(String name, String tag) {
        Answer scrape = admin("GET", "/actuator/prometheus");
        assertThat(scrape.status()).as(scrape.toString()).isEqualTo(200);
        Matcher series = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)} (\\S+)$").matcher(scrape.text());
        double sum = 0;
        while (series.find()) {
            if (series.group(1).contains(tag)) {
                sum += Double.parseDouble(series.group(2));
            }
        }
        return sum;
    }
}
