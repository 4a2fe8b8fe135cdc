package io.paysession.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.support.CardVaultLock;
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

import javax.sql.DataSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Idempotency keys on two nodes sharing one database: this test's application (node A, with the embedded
 * PostgreSQL) and a second JVM of the same application on A's database (node B), both with the same vault key,
 * as production nodes are configured. Keys live for a few seconds here, so that one can be watched expire. Node B
 * runs with the default lease (6 s, renewed every 2 s), node A with a lease of 3 s renewed every 0.5 s, so that a
 * request can be held past its lease in a few seconds.
 */
@SpringBootTest(classes = PaymentSessionServiceApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {EndToEndTestBase.LOG_FILE_SETTING, EndToEndTestBase.LOG_LEVEL_SETTING,
                EndToEndTestBase.WEB_LOG_LEVEL_SETTING})
class IdempotencyAcrossNodesTest {

    private static final String INIT = "/api/v1/session/init/payment";
    private static final String REPLAY = "X-PARTNER-IDEMPOTENT-REPLAY";
    /** Longer than node B's lease (the default, 6 s), as the settings require. */
    private static final Duration LIFETIME = Duration.ofSeconds(12);
    private static final Path DATA_DIRECTORY = TestServiceProperties.newDataDirectory("payments-idem-a");
    private static final String VAULT_KEY = randomVaultKey();
    private static final Map<String, Object> SHARED = Map.of(
            "payments.vault.key", VAULT_KEY,
            "payments.idempotency.lifetime", LIFETIME.toSeconds() + "s",
            "payments.idempotency.purge-interval", "1s");
    private static final Duration LEASE_OF_A = Duration.ofSeconds(3);
    /** Node B's lease: the default. */
    private static final Duration LEASE_OF_B = Duration.ofSeconds(6);

    private static ServiceProcess nodeB;

    @LocalServerPort
    private int port;

    @Autowired
    private EmbeddedPostgresServer postgres;

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private DataSource dataSource;

    @DynamicPropertySource
    static void nodeA(DynamicPropertyRegistry registry) {
        TestServiceProperties.forDataDirectory(DATA_DIRECTORY).forEach((name, value) -> registry.add(name, () -> value));
        SHARED.forEach((name, value) -> registry.add(name, () -> value));
        registry.add("payments.idempotency.lease", () -> LEASE_OF_A.toMillis() + "ms");
        registry.add("payments.idempotency.renew-every", () -> "500ms");
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
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int round = 0; round < 15; round++) {
                String key = "both-nodes-" + round;
                // each round a payment of its own (the same signed body under a new key is refused as a replay)
                String body = cardPayment().put("metadata", "order " + round).toString();
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

    @Test
    void aRequestHeldLongerThanItsLeaseOnALiveNodeIsNotRunAgainByARetryOnTheOther() throws Exception {
        TestPartner partner = register("nodes-held");
        String body = cardPayment().put("metadata", "held past its lease").toString();
        List<String> retries = new ArrayList<>();
        CompletableFuture<Answer> onA;
        try (CardVaultLock vaultLock = CardVaultLock.hold(dataSource)) {
            onA = CompletableFuture.supplyAsync(() -> partner.sameKeysAt(nodeA()).post(INIT, body, "held-1"));
            vaultLock.awaitARequestWaiting();
            // two of A's leases (and less than a key's lifetime), a retry on B every half second all the while
            long until = System.nanoTime() + LEASE_OF_A.multipliedBy(2).toNanos();
            while (System.nanoTime() < until) {
                retries.add(retryWithin(nodeB.baseUrl(), partner, body, "held-1", Duration.ofSeconds(2)));
                Thread.sleep(500);
            }
        }
        Answer first = onA.get(30, TimeUnit.SECONDS);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(retries).as("every retry while the request ran on A").isNotEmpty()
                .allMatch("400 idempotency_key_already_exists"::equals);
        assertThat(sessionsCreatedWithKey(partner, "held-1")).isEqualTo(1);
        Answer afterwards = partner.sameKeysAt(nodeB.baseUrl()).post(INIT, body, "held-1");
        assertThat(afterwards.headers().firstValue(REPLAY)).contains("true");
        assertThat(afterwards.text()).isEqualTo(first.text());
    }

    @Test
    void aKeyWhoseNodeWasKilledMidRequestAnswersARetryOnTheOtherNodeWithinALease() throws Exception {
        TestPartner partner = register("nodes-killed");
        String body = cardPayment().put("metadata", "its node was killed").toString();
        long killedAt;
        try (CardVaultLock vaultLock = CardVaultLock.hold(dataSource)) {
            CompletableFuture.runAsync(() -> {
                try {
                    partner.sameKeysAt(nodeB.baseUrl()).post(INIT, body, "killed-1");
                } catch (RuntimeException connectionLost) {
                    // the node dies under the request
                }
            });
            vaultLock.awaitARequestWaiting();
            // the waiter seen may be another one (a node's security-code sweep also takes the vault): the key's own
            // row says when this request is the one held
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> "running".equals(keyStateOrNone(partner, "killed-1")));
            nodeB.kill();
            killedAt = System.nanoTime();
        }
        try {
            Answer answer;
            do {
                answer = partner.sameKeysAt(nodeA()).post(INIT, body, "killed-1");
                if (answer.status() != 200) {
                    assertThat(answer.errorCode()).as(answer.toString()).isEqualTo("idempotency_key_already_exists");
                    Thread.sleep(250);
                }
            } while (answer.status() != 200 && System.nanoTime() - killedAt < LEASE_OF_B.multipliedBy(3).toNanos());
            Duration took = Duration.ofNanos(System.nanoTime() - killedAt);
            System.out.println("IdempotencyAcrossNodesTest: the retry after node B was killed got its answer "
                    + took.toMillis() + " ms after the kill (B's lease " + LEASE_OF_B.toSeconds() + " s)");

            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            assertThat(took).as("within one lease of the node's death, plus the retries' pace")
                    .isLessThan(LEASE_OF_B.plusSeconds(5));
            assertThat(sessionsCreatedWithKey(partner, "killed-1")).isEqualTo(1);
        } finally {
            nodeB.start();
        }
    }

    private String keyStateOrNone(TestPartner partner, String key) {
        return jdbc.queryForList("select state from idempotency_key where project = ? and idempotency_key = ?",
                String.class, partner.project(), key).stream().findFirst().orElse(null);
    }

    /** A retry that gets no answer within {@code wait} is reported as running (it was not refused). */
    private static String retryWithin(String node, TestPartner partner, String json, String key, Duration wait) {
        byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(node + INIT)).timeout(wait)
                .header("Content-Type", "application/json")
                .header("X-PARTNER-PROJECT", partner.project())
                .header("X-PARTNER-SIGN", partner.sign(body))
                .header("X-PARTNER-IDEMPOTENCY-KEY", key)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        try {
            Answer answer = TestPartner.exchange(request);
            return answer.status() + " " + answer.errorCode();
        } catch (RuntimeException timedOut) {
            return "no answer within " + wait.toMillis() + " ms: it ran";
        }
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
