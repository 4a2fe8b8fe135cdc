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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One of three nodes on one PostgreSQL killed with SIGKILL in the middle of a load (issue 19). Partners keep sending,
 * to the live nodes, and send again with the same idempotency key what the dead node did not answer. Afterwards: no
 * accepted request is lost (every session whose init was answered ends, accepted), every webhook arrives, no money
 * moved twice (each authorization made once over all three nodes, counted outside the JVMs), the reconciliation report
 * covers every payment, and everything the dead node held (its processor segments, the webhooks it had claimed, its
 * rail calls in flight, the idempotency keys of its requests) is taken over within 15 s. The figures are printed.
 */
class NodeKilledUnderLoadTest {

    private static final Duration TAKE_OVER = Duration.ofSeconds(15);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int USERS = 9;
    private static final Duration BEFORE_KILL = Duration.ofSeconds(8);
    private static final Duration AFTER_KILL = Duration.ofSeconds(12);

    private Cluster cluster;
    private volatile String servicePublicKey;
    private final WebhookReceiver webhooks = new WebhookReceiver(() -> servicePublicKey);
    private final List<ServiceProcess> live = new CopyOnWriteArrayList<>();
    private final AtomicInteger turn = new AtomicInteger();
    /** Sessions whose init the service answered: accepted, so they must end. */
    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    /** For each request the dead node did not answer: how long after the kill its retry was answered. */
    private final List<Duration> retriedAfterKill = new CopyOnWriteArrayList<>();
    private volatile long killedAt;

    @AfterEach
    void stop() {
        webhooks.close();
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aNodeKilledMidLoadLosesNothingMovesNoMoneyTwiceAndIsTakenOverWithinFifteenSeconds() throws Exception {
        cluster = new Cluster("payments-kill", Map.of("payments.test.faulty-rails", "true"));
        ServiceProcess a = cluster.node("all");
        ServiceProcess b = cluster.node("all");
        ServiceProcess c = cluster.node("all");
        Cluster.start(a, b, c);
        live.addAll(List.of(a, b, c));
        servicePublicKey = new ServiceClient(a.baseUrl()).servicePublicKey();
        TestPartner partner = register(a);

        ExecutorService users = Executors.newFixedThreadPool(USERS);
        long loadEndsAt = System.nanoTime() + BEFORE_KILL.plus(AFTER_KILL).toNanos();
        List<Future<Integer>> running = new ArrayList<>();
        for (int user = 0; user < USERS; user++) {
            running.add(users.submit(() -> {
                int lifecycles = 0;
                while (System.nanoTime() < loadEndsAt) {
                    lifecycle(partner);
                    lifecycles++;
                }
                return lifecycles;
            }));
        }

        Thread.sleep(BEFORE_KILL.toMillis());
        String deadOwner = Cluster.tokenOwner(c);
        String deadDispatcher = "pid" + c.pid() + "-";
        String deadRailNode = c.pid() + "@";
        HeldByDeadNode heldAtKill = held(deadOwner, deadDispatcher, deadRailNode);
        live.remove(c);
        killedAt = System.nanoTime();
        c.kill();
        Map<String, Duration> takeOver = awaitTakeOver(deadOwner, deadDispatcher, deadRailNode);

        int lifecycles = 0;
        for (Future<Integer> user : running) {
            lifecycles += user.get(3, TimeUnit.MINUTES);
        }
        users.shutdown();

        Duration keys = retriedAfterKill.stream().max(Duration::compareTo).orElse(Duration.ZERO);
        System.out.println("NodeKilledUnderLoadTest: " + lifecycles + " lifecycles by " + USERS + " users, "
                + accepted.size() + " sessions accepted; the node killed held " + heldAtKill + "; taken over after the"
                + " kill: " + describe(takeOver) + "; " + retriedAfterKill.size() + " requests it did not answer were"
                + " answered on another node with their idempotency keys, the last " + keys.toMillis() + " ms after the"
                + " kill");

        assertThat(takeOver).allSatisfy((what, took) -> assertThat(took).as(what).isLessThanOrEqualTo(TAKE_OVER));
        assertThat(keys).as("the dead node's idempotency keys").isLessThanOrEqualTo(TAKE_OVER);
        assertThat(lifecycles).isGreaterThan(USERS);
        assertEverySessionEndedAcceptedWithItsWebhooks();
        int answeredOnQuery = assertEveryAuthorizationMadeOnce(List.of(a, b, c));
        System.out.println("NodeKilledUnderLoadTest: " + answeredOnQuery + " payment(s) the dead node journaled as sent "
                + "and had not sent: asked about by another node, authorized by the acquirer then");
        assertReconciliationCoversEveryPayment(a, partner);
    }

    /** One partner's card payment: init, its ready_to_confirm, confirm, its payment_finished. */
    private void lifecycle(TestPartner partner) {
        ObjectNode body = EndToEndTestBase.cardPayment("4242424242424242", "123");
        body.put("metadata", "order " + UUID.randomUUID());
        Answer init = untilAnswered(partner, "/api/v1/session/init/payment", body);
        String sessionId = init.session().path("id").asText();
        accepted.add(sessionId);
        webhooks.await(sessionId, "ready_to_confirm", WAIT);
        untilAnswered(partner, "/api/v1/session/confirm", JsonNodeFactory.instance.objectNode()
                .put("session_id", sessionId));
        webhooks.await(sessionId, "payment_finished", WAIT);
    }

    /**
     * Sends the request to the next live node, and, as a partner does when no answer came (the node died) or the key is
     * still running on another request, sends it again to another node with the same idempotency key and body.
     */
    private Answer untilAnswered(TestPartner partner, String path, JsonNode body) {
        String key = UUID.randomUUID().toString();
        String json = body.toString();
        long deadline = System.nanoTime() + WAIT.toNanos();
        boolean interrupted = false;
        while (true) {
            ServiceProcess node = live.get(Math.floorMod(turn.getAndIncrement(), live.size()));
            try {
                Answer answer = partner.sameKeysAt(node.baseUrl()).post(path, json, key);
                if (answer.status() == 200) {
                    if (interrupted) {
                        retriedAfterKill.add(Duration.ofNanos(System.nanoTime() - killedAt));
                    }
                    return answer;
                }
                boolean retry = answer.status() == 503
                        || "idempotency_key_already_exists".equals(answer.errorCode());
                assertThat(retry).as(path + " on " + node.baseUrl() + ": " + answer).isTrue();
                interrupted |= killedAt != 0;
            } catch (UncheckedIOException noAnswer) {
                interrupted = true; // the node died under the request: its outcome is the key's to tell
            }
            assertThat(System.nanoTime()).as(path + " never answered").isLessThan(deadline);
            sleep(100);
        }
    }

    /** What the node to be killed holds at that moment. */
    private record HeldByDeadNode(int segments, int webhooks, int railCalls, int keysRunningOnAllNodes) {
    }

    private HeldByDeadNode held(String owner, String dispatcher, String railNode) {
        return new HeldByDeadNode(segmentsOf(owner), webhooksClaimedBy(dispatcher), railCallsOf(railNode),
                cluster.jdbc().queryForObject("select count(*) from idempotency_key where state = 'running'",
                        Integer.class));
    }

    /** Waits until nothing the dead node held is left to it; how long after the kill each kind was free. */
    private Map<String, Duration> awaitTakeOver(String owner, String dispatcher, String railNode) {
        Map<String, Supplier<Boolean>> free = new LinkedHashMap<>();
        free.put("processor segments", () -> segmentsOf(owner) == 0 && unclaimedSegments() == 0);
        free.put("claimed webhooks", () -> webhooksClaimedBy(dispatcher) == 0);
        free.put("rail calls in flight", () -> railCallsOf(railNode) == 0);
        free.put("deadlines being run", () -> cluster.jdbc().queryForObject(
                "select count(*) from scheduled_tasks where picked and picked_by = 'node-3'", Integer.class) == 0);
        Map<String, Duration> took = new LinkedHashMap<>();
        await().atMost(TAKE_OVER.plusSeconds(15)).pollInterval(Duration.ofMillis(100)).until(() -> {
            free.forEach((what, isFree) -> {
                if (!took.containsKey(what) && isFree.get()) {
                    took.put(what, Duration.ofNanos(System.nanoTime() - killedAt));
                }
            });
            return took.size() == free.size();
        });
        return took;
    }

    private int segmentsOf(String owner) {
        return cluster.jdbc().queryForObject("select count(*) from token_entry where owner = ?", Integer.class, owner);
    }

    private int unclaimedSegments() {
        return cluster.jdbc().queryForObject("select count(*) from token_entry where owner is null"
                + " and processor_name in ('payment-process', 'settlement')", Integer.class);
    }

    private int webhooksClaimedBy(String dispatcher) {
        return cluster.jdbc().queryForObject("select count(*) from webhook_notification where state = 'PENDING'"
                + " and claimed_by like ?", Integer.class, dispatcher + "%");
    }

    private int railCallsOf(String railNode) {
        return cluster.jdbc().queryForObject("select count(*) from rail_call_in_flight where owner like ?",
                Integer.class, railNode + "%");
    }

    private void assertEverySessionEndedAcceptedWithItsWebhooks() {
        List<String> sessions = new ArrayList<>(accepted);
        Collections.sort(sessions);
        for (String sessionId : sessions) {
            Received finished = webhooks.await(sessionId, "payment_finished", WAIT);
            assertThat(finished.session().path("status").asText()).as(sessionId).isEqualTo("accepted");
            Map<String, Set<String>> idsByType = webhooks.forSession(sessionId).stream()
                    .collect(Collectors.groupingBy(Received::type,
                            Collectors.mapping(Received::webhookId, Collectors.toSet())));
            assertThat(idsByType.keySet()).as(sessionId).containsExactlyInAnyOrder("ready_to_confirm",
                    "payment_finished");
            // at least once: a webhook the dead node was sending may come again, with the same id
            assertThat(idsByType.values()).as(sessionId).allSatisfy(ids -> assertThat(ids).hasSize(1));
        }
        assertThat(webhooks.all()).allSatisfy(webhook -> assertThat(webhook.signatureValid()).isTrue());
    }

    /**
     * What the engine sent, from each node's rail log: no money-moving call twice. What the acquirer did, from its
     * own records (the sandbox's ledger, shared by the nodes as a real acquirer's would be): every accepted payment
     * authorized. A payment without a call of its own is one the dead node journaled as sent and may not have sent
     * before it died: another node only asked the acquirer about it (never called again), and the acquirer, with no
     * record of it, processed it then (SandboxCardAcquirer.queryOutcome), so it was authorized once either way.
     */
    private int assertEveryAuthorizationMadeOnce(List<ServiceProcess> nodes) {
        List<String> lines = new ArrayList<>();
        nodes.forEach(node -> lines.addAll(FaultyRails.calls(node.dataDirectory())));
        Map<String, Long> times = lines.stream().filter(line -> line.endsWith(" call"))
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(times).as("money-moving calls").allSatisfy((call, count) -> assertThat(count).as(call).isEqualTo(1));
        Set<String> called = paymentsIn(lines, " call");
        Set<String> asked = paymentsIn(lines, " query");

        Set<String> authorized = Set.copyOf(cluster.jdbc().queryForList(
                "select payment_id from sandbox_rail_ledger where kind = 'authorize'", String.class));
        assertThat(authorized).as("payments the acquirer authorized").hasSize(accepted.size());
        Set<String> notCalled = new HashSet<>(authorized);
        notCalled.removeAll(called);
        assertThat(notCalled).as("authorized without a call: only asked about after the kill").isSubsetOf(asked);
        return notCalled.size();
    }

    private static Set<String> paymentsIn(List<String> lines, String suffix) {
        return lines.stream().filter(line -> line.startsWith("authorize ") && line.endsWith(suffix))
                .map(line -> line.substring("authorize ".length(), line.length() - suffix.length()))
                .collect(Collectors.toSet());
    }

    private void assertReconciliationCoversEveryPayment(ServiceProcess node, TestPartner partner) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String path = "/admin/v1/reports/reconciliation?project=" + partner.project() + "&from=" + today.minusDays(1)
                + "&to=" + today.plusDays(1);
        ServiceClient service = new ServiceClient(node.baseUrl());
        await().atMost(WAIT).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            Answer report = service.admin("GET", path, null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(report.status()).as(report.toString()).isEqualTo(200);
            long payments = 0;
            for (JsonNode row : report.body().path("report").path("rows")) {
                if (row.path("operation").asText().equals("payment")) {
                    payments += row.path("count").asLong();
                }
            }
            assertThat(payments).as("payments in the reconciliation report").isEqualTo(accepted.size());
        });
    }

    private TestPartner register(ServiceProcess node) {
        TestPartner partner = new TestPartner("kill-" + UUID.randomUUID().toString().substring(0, 8));
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", webhooks.url(partner.project()))
                .put("capture_mode", "auto");
        Answer answer = new ServiceClient(node.baseUrl()).admin("POST", "/admin/v1/partners", body.toString(),
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
        return partner;
    }

    private static String describe(Map<String, Duration> took) {
        return took.entrySet().stream().map(entry -> entry.getKey() + " " + entry.getValue().toMillis() + " ms")
                .collect(Collectors.joining(", "));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
