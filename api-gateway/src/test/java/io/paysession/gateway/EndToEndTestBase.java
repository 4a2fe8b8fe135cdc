package io.paysession.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The running service on its embedded PostgreSQL, reached over real HTTP on a random port, with a real
 * webhook receiver. Test classes extending this share one application (Spring's context cache).
 */
@SpringBootTest(classes = PaymentSessionServiceApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        // logging starts before dynamic properties exist, so its settings are static
        properties = {EndToEndTestBase.LOG_FILE_SETTING, EndToEndTestBase.LOG_LEVEL_SETTING,
                EndToEndTestBase.WEB_LOG_LEVEL_SETTING})
public abstract class EndToEndTestBase {

    /** Relative to the module directory, where Surefire runs; cleaned with {@code target}. */
    protected static final String LOG_FILE = "target/e2e-logs/service.log";
    /**
     * Logging is global to the JVM and set up again by the next application to start after one closes, so every
     * application a test starts in this JVM logs with these settings, or the shared application's lines (read by
     * CardDataNeverStoredTest) go elsewhere or lose their level.
     */
    static final String LOG_FILE_SETTING = "logging.file.name=" + LOG_FILE;
    static final String LOG_LEVEL_SETTING = "logging.level.io.paysession=DEBUG";
    static final String WEB_LOG_LEVEL_SETTING = "logging.level.org.springframework.web=DEBUG";
    protected static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);
    protected static final Path DATA_DIRECTORY = TestServiceProperties.newDataDirectory("payments-e2e");
    protected static volatile String servicePublicKey;
    protected static final WebhookReceiver WEBHOOKS = new WebhookReceiver(() -> servicePublicKey);
    private static final AtomicInteger PARTNERS = new AtomicInteger();

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void serviceProperties(DynamicPropertyRegistry registry) {
        TestServiceProperties.forDataDirectory(DATA_DIRECTORY).forEach((name, value) -> registry.add(name, () -> value));
    }

    @BeforeEach
    void readServiceKey() {
        if (servicePublicKey == null) {
            Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/service/public-key"))
                    .GET().build());
            assertThat(answer.status()).isEqualTo(200);
            servicePublicKey = answer.text();
        }
    }

    /**
     * A service of its own, not the shared one, with {@code settings} as command-line arguments (they must win over
     * application.yml's environment placeholders) and the same logging as the shared one ({@link #LOG_FILE_SETTING}
     * says why).
     */
    static ConfigurableApplicationContext startService(Map<String, Object> settings) {
        Map<String, Object> properties = new LinkedHashMap<>(settings);
        for (String setting : List.of(LOG_FILE_SETTING, LOG_LEVEL_SETTING, WEB_LOG_LEVEL_SETTING)) {
            properties.put(setting.substring(0, setting.indexOf('=')), setting.substring(setting.indexOf('=') + 1));
        }
        return new SpringApplicationBuilder(PaymentSessionServiceApplication.class)
                .run(properties.entrySet().stream().map(entry -> "--" + entry.getKey() + "=" + entry.getValue())
                        .toArray(String[]::new));
    }

    protected String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** A new partner registered through the admin API, its webhooks going to {@link #WEBHOOKS}. */
    protected TestPartner registeredPartner(String name) {
        return registeredPartner(name, WEBHOOKS::url, "auto");
    }

    protected TestPartner registeredPartner(String name, String captureMode) {
        return registeredPartner(name, WEBHOOKS::url, captureMode);
    }

    /** A new partner registered through the admin API, its webhooks going to {@code webhookUrl} of its project. */
    protected TestPartner registeredPartner(String name, Function<String, String> webhookUrl) {
        return registeredPartner(name, webhookUrl, "auto");
    }

    protected TestPartner registeredPartner(String name, Function<String, String> webhookUrl, String captureMode) {
        TestPartner partner = new TestPartner(name + "-" + PARTNERS.incrementAndGet() + "-"
                + UUID.randomUUID().toString().substring(0, 8)).at(baseUrl());
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", webhookUrl.apply(partner.project()))
                .put("capture_mode", captureMode);
        body.putObject("fees").put("percent_bp", 250).put("fixed", 30);
        Answer answer = admin("POST", "/admin/v1/partners", body.toString(), TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
        return partner;
    }

    protected Answer admin(String method, String path, String json, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return TestPartner.exchange(request.build());
    }

    /** An {@code init/payment} body for a card, 100.00 RUB. */
    protected static ObjectNode cardPayment(String number, String securityCode) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ObjectNode details = body.putObject("payment_details").put("type", "card");
        details.putObject("card").put("type", "bank_card").putObject("bank_card")
                .put("number", number)
                .put("expiration_month", "12")
                .put("expiration_year", "34")
                .put("security_code", securityCode);
        body.putObject("amount_details").put("amount", 10000).put("currency", "RUB");
        body.putObject("customer").put("reference", "customer-42");
        body.put("metadata", "order 42");
        return body;
    }

    /** The payer's answer on a hosted payer page, as a script gives it. */
    protected Answer payerAnswers(String interactionUrl, boolean approve) {
        String path = URI.create(interactionUrl).getPath() + (approve ? "/approve" : "/decline");
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** A public token of the card-tokenizer widget, issued to the partner over the signed API. */
    protected String publicToken(TestPartner partner) {
        Answer issued = partner.post("/api/v1/token", "{\"tokenize_widget\":{\"access\":true}}");
        assertThat(issued.status()).as(issued.toString()).isEqualTo(200);
        return issued.body().path("public_token").asText();
    }

    /** The widget's own call: no partner headers, the public token in {@code X-PUBLIC-TOKEN} when given. */
    protected Answer tokenizeCard(String publicToken, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + "/cds/v1/tokenize/card"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (publicToken != null) {
            request.header("X-PUBLIC-TOKEN", publicToken);
        }
        return TestPartner.exchange(request.build());
    }

    /**
     * A card payout (v1, 1 500.00 RUB to a named recipient) by a widget's card token as
     * {@code encrypted_card.number_hash}, confirmed after {@code ready_to_confirm}; its signed {@code payment_finished}.
     */
    protected Received payOutByWidgetToken(TestPartner partner, String cardToken) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_method").put("type", "card").putObject("card").put("type", "encrypted_card")
                .putObject("encrypted_card").put("number_hash", cardToken);
        body.putObject("amount_details").put("amount", 150_000).put("currency", "rub");
        body.putObject("participant_details").putObject("recipient").put("full_name", "Anna Petrova");
        return WEBHOOKS.await(initiatedAndConfirmed(partner, "/api/v1/session/init/payout", body), "payment_finished",
                WEBHOOK_WAIT);
    }

    /** A session made by an {@code init/*} request, confirmed after its signed {@code ready_to_confirm}; its id. */
    protected String initiatedAndConfirmed(TestPartner partner, String initPath, ObjectNode body) {
        Answer init = partner.post(initPath, body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(ready.signatureValid()).isTrue();
        Answer confirm = partner.post(initPath.replaceFirst("/init/.*", "/confirm"), sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        return sessionId;
    }

    protected static ObjectNode sessionRef(String sessionId) {
        return JsonNodeFactory.instance.objectNode().put("session_id", sessionId);
    }
}
