package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.PostgresControl;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;
import static org.awaitility.Awaitility.await;

/**
 * The store goes away under a running service and comes back. Meanwhile every path (the signature filter's partner
 * lookup, the idempotency filter, the API, the admin API, the hosted payer pages, the widget's tokenization, health)
 * answers 503 at once, in the contract's error shape ({@code service_unavailable}; health: {@code DOWN}), rather
 * than a 500 or a wait of 30 s for a connection; afterwards everything answers again and nothing accepted is lost.
 */
@SpringBootTest(classes = PaymentSessionServiceApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {EndToEndTestBase.LOG_FILE_SETTING, EndToEndTestBase.LOG_LEVEL_SETTING,
                EndToEndTestBase.WEB_LOG_LEVEL_SETTING})
class StoreDownEndToEndTest {

    private static final Path DATA_DIRECTORY = TestServiceProperties.newDataDirectory("payments-store-down");
    /**
     * The store is an external PostgreSQL, as in production: the embedded default's watchdog would start its own
     * server again at once, and an operator's database is stopped and started by the operator (here, the test).
     */
    private static final Path STORE_DIRECTORY = DATA_DIRECTORY.resolve("external-postgres");
    private static EmbeddedPostgresServer store;
    /** The pool's wait for a connection is 2 s; the answer may take that and a little more, never 30 s. */
    private static final Duration PROMPT = Duration.ofMillis(3500);

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void serviceProperties(DynamicPropertyRegistry registry) {
        TestServiceProperties.forDataDirectory(DATA_DIRECTORY).forEach((name, value) -> registry.add(name, () -> value));
        store = EmbeddedPostgresServer.start(STORE_DIRECTORY, 0, false);
        Runtime.getRuntime().addShutdownHook(new Thread(store::close));
        registry.add("payments.db.url", store::jdbcUrl);
        registry.add("spring.datasource.url", store::jdbcUrl);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", store::password);
    }

    @Test
    void everyPathAnswers503PromptlyWhileTheStoreIsDownAndEverythingWorksAgainAfterwards() {
        ServiceClient service = new ServiceClient(baseUrl());
        TestPartner partner = service.register(new TestPartner("store-down-" + UUID.randomUUID().toString()
                .substring(0, 8)), WebhookReceiver.url(WebhookReceiver.freePort(), "store-down"));
        String sessionId = ServiceClient.readyToConfirm(partner, "4000000000003220");
        ServiceClient.confirm(partner, sessionId);
        String payerPage = payerPageOf(partner, sessionId);
        Answer issued = partner.post("/api/v1/token", "{\"tokenize_widget\":{\"access\":true}}");
        assertThat(issued.status()).as(issued.toString()).isEqualTo(200);
        String publicToken = issued.body().path("public_token").asText();
        Map<String, Supplier<Answer>> requests = requests(service, partner, sessionId, payerPage, publicToken);

        PostgresControl postgres = new PostgresControl(STORE_DIRECTORY);
        postgres.stop();
        try {
            assertSoftly(softly -> requests.forEach((name, request) -> {
                long started = System.nanoTime();
                Answer answer = request.get();
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                System.out.println("StoreDownEndToEndTest: " + name + " -> " + answer.status() + " in "
                        + took.toMillis() + " ms");
                softly.assertThat(answer.status()).as(name + ": " + answer).isEqualTo(503);
                softly.assertThat(took).as(name + " answered promptly").isLessThan(PROMPT);
                if (name.startsWith("health")) {
                    softly.assertThat(answer.body().path("status").asText()).as(name).isEqualTo("DOWN");
                } else {
                    softly.assertThat(answer.errorCode()).as(name + ": " + answer).isEqualTo("service_unavailable");
                    softly.assertThat(answer.body().path("status").asText()).as(name).isEqualTo("error");
                }
            }));
        } finally {
            postgres.start();
        }

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> requests.get("health").get().status() == 200);
        Answer status = partner.post("/api/v1/session/status", ServiceClient.sessionRef(sessionId));
        assertThat(status.status()).as("the session accepted before: " + status).isEqualTo(200);
        assertThat(status.session().path("id").asText()).isEqualTo(sessionId);
        assertThat(requests.get("a signed payment with an idempotency key").get().status()).isEqualTo(200);
        assertThat(requests.get("a signed payment without a key").get().status()).isEqualTo(200);
        assertThat(requests.get("the bank list").get().status()).isEqualTo(200);
        assertThat(requests.get("admin: read a partner").get().status()).isEqualTo(200);
        assertThat(requests.get("admin: register a partner").get().status()).isEqualTo(201);
        assertThat(requests.get("the hosted payer page").get().status()).isEqualTo(200);
        assertThat(requests.get("the widget's tokenization").get().status()).isEqualTo(200);
    }

    private Map<String, Supplier<Answer>> requests(ServiceClient service, TestPartner partner, String sessionId,
                                                   String payerPage, String publicToken) {
        Map<String, Supplier<Answer>> requests = new LinkedHashMap<>();
        requests.put("a signed status request", () -> partner.post("/api/v1/session/status",
                ServiceClient.sessionRef(sessionId)));
        requests.put("a signed payment with an idempotency key", () -> partner.post("/api/v1/session/init/payment",
                payment("with a key").toString(), "store-down-1"));
        requests.put("a signed payment without a key", () -> partner.post("/api/v1/session/init/payment",
                payment("without a key")));
        requests.put("the bank list", () -> {
            byte[] empty = new byte[0];
            return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/fps/banks"))
                    .header("X-PARTNER-PROJECT", partner.project()).header("X-PARTNER-SIGN", partner.sign(empty))
                    .GET().build());
        });
        requests.put("an unknown project", () -> new TestPartner("never-registered").at(baseUrl())
                .post("/api/v1/session/status", ServiceClient.sessionRef(sessionId)));
        requests.put("admin: read a partner", () -> service.admin("GET", "/admin/v1/partners/" + partner.project()));
        requests.put("admin: register a partner", () -> {
            TestPartner another = new TestPartner("store-down-new-" + UUID.randomUUID().toString().substring(0, 8));
            ObjectNode body = JsonNodeFactory.instance.objectNode().put("project", another.project())
                    .put("public_key", another.publicKeyPem()).put("webhook_url", "http://127.0.0.1:9/hooks")
                    .put("capture_mode", "auto");
            return service.admin("POST", "/admin/v1/partners", body.toString(), TestServiceProperties.ADMIN_TOKEN);
        });
        requests.put("admin: a session's events", () -> service.admin("GET", "/admin/v1/sessions/" + sessionId
                + "/events"));
        requests.put("the hosted payer page", () -> TestPartner.exchange(HttpRequest.newBuilder(URI.create(payerPage))
                .GET().build()));
        requests.put("the widget's tokenization", () -> TestPartner.exchange(HttpRequest.newBuilder(
                        URI.create(baseUrl() + "/cds/v1/tokenize/card"))
                .header("Content-Type", "application/json").header("X-PUBLIC-TOKEN", publicToken)
                .POST(HttpRequest.BodyPublishers.ofString("{\"card\":{\"number\":\"4242424242424242\"}}",
                        StandardCharsets.UTF_8)).build()));
        requests.put("health", () -> TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl()
                + "/actuator/health")).GET().build()));
        return requests;
    }

    /** The 3-D Secure page of the payment, once the rail asked for it. */
    private static String payerPageOf(TestPartner partner, String sessionId) {
        String[] url = new String[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonNode payment = partner.post("/api/v1/session/status", ServiceClient.sessionRef(sessionId)).session()
                    .path("acquiring_payments").path(0);
            url[0] = payment.path("customer_interaction").path("redirect").path("url").asText(null);
            return url[0] != null;
        });
        return url[0];
    }

    private static ObjectNode payment(String order) {
        return EndToEndTestBase.cardPayment("4242424242424242", "123").put("metadata", order);
    }

    private String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
