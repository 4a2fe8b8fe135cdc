package io.paysession.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.Race;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Idempotency keys on two nodes sharing one database: this test's application (node A, with the embedded
 * PostgreSQL) and a second JVM of the same application on A's database (node B), both with the same vault key,
 * as production nodes are configured. Keys live for a few seconds here, so that one can be watched expire.
 */
@SpringBootTest(classes = PaymentSessionServiceApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {EndToEndTestBase.LOG_FILE_SETTING, EndToEndTestBase.LOG_LEVEL_SETTING,
                EndToEndTestBase.WEB_LOG_LEVEL_SETTING})
class IdempotencyAcrossNodesTest {

    private static final String INIT = "/api/v1/session/init/payment";
    private static final String REPLAY = "X-PARTNER-IDEMPOTENT-REPLAY";
    private static final Duration LIFETIME = Duration.ofSeconds(8);
    private static final Path DATA_DIRECTORY = TestServiceProperties.newDataDirectory("payments-idem-a");
    private static final String VAULT_KEY = randomVaultKey();
    private static final Map<String, Object> SHARED = Map.of(
            "payments.vault.key", VAULT_KEY,
            "payments.idempotency.lifetime", LIFETIME.toSeconds() + "s",
            // far longer than a request takes even on a busy machine, shorter than the lifetime
            "payments.idempotency.lease", "5s",
            "payments.idempotency.purge-interval", "1s");

    private static ServiceProcess nodeB;

    @LocalServerPort
    private int port;

    @Autowired
    private EmbeddedPostgresServer postgres;

    @Autowired
    private JdbcTemplate jdbc;

    @DynamicPropertySource
    static void nodeA(DynamicPropertyRegistry registry) {
        TestServiceProperties.forDataDirectory(DATA_DIRECTORY).forEach((name, value) -> registry.add(name, () -> value));
        SHARED.forEach((name, value) -> registry.add(name, () -> value));
    }

    @BeforeEach
    void startNodeB() {
        if (nodeB == null) {
            Map<String, Object> properties = new HashMap<>(SHARED);
            properties.put("payments.db.url", postgres.jdbcUrl());
            properties.put("spring.datasource.url", postgres.jdbcUrl());
            properties.put("spring.datasource.username", "postgres");
            properties.put("spring.datasource.password", postgres.password());
            properties.put("payments.db.pool-size", "10");
            nodeB = new ServiceProcess(TestServiceProperties.newDataDirectory("payments-idem-b"), properties);
            nodeB.start();
        }
    }

    @AfterAll
    static void stopNodeB() {
        if (nodeB != null) {
            nodeB.close();
        }
    }

    @Test
    void identicalRequestsRacingOnBothNodesCreateExactlyOneSession() throws Exception {
        TestPartner partner = register("nodes-race");
        String body = cardPayment().toString();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int round = 0; round < 15; round++) {
                String key = "both-nodes-" + round;
                List<Callable<Answer>> requests = new ArrayList<>();
                for (String node : List.of(nodeA(), nodeB.baseUrl(), nodeA(), nodeB.baseUrl(), nodeA(), nodeB.baseUrl())) {
                    requests.add(() -> partner.sameKeysAt(node).post(INIT, body, key));
                }
                List<Answer> answers = Race.run(pool, requests);

                Race.assertOneSessionAnswered(answers, "round " + round);
                assertThat(sessionsCreatedWithKey(partner, key)).as("round " + round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theAnswerKeptOnOneNodeIsReplayedByTheOther() {
        TestPartner partner = register("nodes-replay");
        String body = cardPayment().toString();

        Answer onA = partner.sameKeysAt(nodeA()).post(INIT, body, "order-a1");
        Answer onB = partner.sameKeysAt(nodeB.baseUrl()).post(INIT, body, "order-a1");

        assertThat(onA.status()).as(onA.toString()).isEqualTo(200);
        assertThat(onB.headers().firstValue(REPLAY)).contains("true");
        assertThat(onB.text()).isEqualTo(onA.text());
    }

    @Test
    void aKeyIsForgottenWhenItsLifetimeIsOverAndItsDecisionsStay() throws Exception {
        TestPartner partner = register("nodes-expiry").at(nodeA());
        String first = cardPayment().toString();
        String second = cardPayment().put("metadata", "a later order").toString();
        Answer original = partner.post(INIT, first, "reused-key");
        assertThat(original.status()).isEqualTo(200);
        assertThat(partner.post(INIT, second, "reused-key").errorCode()).isEqualTo("idempotency_key_params_mismatch");

        Thread.sleep(LIFETIME.plusSeconds(1).toMillis());

        Answer later = partner.post(INIT, second, "reused-key");
        assertThat(later.status()).as(later.toString()).isEqualTo(200);
        assertThat(later.headers().firstValue(REPLAY)).isEmpty();
        assertThat(later.session().path("id").asText()).isNotEqualTo(original.session().path("id").asText());
        assertThat(partner.post(INIT, first, "reused-key").errorCode())
                .as("the key now belongs to the later request").isEqualTo("idempotency_key_params_mismatch");

        Answer forgotten = partner.post(INIT, first, "forgotten-key");
        assertThat(forgotten.status()).isEqualTo(200);
        await().atMost(LIFETIME.multipliedBy(3)).pollInterval(Duration.ofMillis(500)).until(() ->
                jdbc.queryForObject("select count(*) from idempotency_key where project = ? and idempotency_key = ?",
                        Long.class, partner.project(), "forgotten-key") == 0);
        Answer audit = new ServiceClient(nodeA()).admin("GET", "/admin/v1/idempotency-keys/" + partner.project()
                + "/forgotten-key");
        assertThat(audit.status()).as(audit.toString()).isEqualTo(200);
        assertThat(audit.body().path("idempotency_key").has("kept")).isFalse();
        assertThat(audit.body().path("idempotency_key").path("decisions").path(0).path("decision").asText())
                .isEqualTo("first_use");
    }

    private String nodeA() {
        return "http://127.0.0.1:" + port;
    }

    private TestPartner register(String name) {
        TestPartner partner = new TestPartner(name + "-" + System.nanoTime());
        return new ServiceClient(nodeA()).register(partner, WebhookReceiver.url(WebhookReceiver.freePort(), name));
    }

    private long sessionsCreatedWithKey(TestPartner partner, String key) {
        return Race.sessionsCreatedWithKey(jdbc, partner.project(), key);
    }

    private static ObjectNode cardPayment() {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_details").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242").put("expiration_month", "12")
                .put("expiration_year", "34").put("security_code", "123");
        body.putObject("amount_details").put("amount", 10000).put("currency", "rub");
        body.putObject("customer").put("reference", "customer-9");
        return body;
    }

    private static String randomVaultKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
