package io.paysession.gateway;

import io.paysession.api.RequestMetadataKeys;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.SessionId;
import io.paysession.gateway.idempotency.IdempotencyFence;
import io.paysession.gateway.idempotency.RequestFingerprint;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.CardVaultLock;
import io.paysession.gateway.support.Race;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code X-PARTNER-IDEMPOTENCY-KEY} over real HTTP (decisions.md section 8): replays, mismatches, keys in flight,
 * the methods that take no key, commands that must not run twice, the audit of every decision, and requests
 * whose node died while they ran.
 */
class IdempotencyEndToEndTest extends EndToEndTestBase {

    private static final String INIT = "/api/v1/session/init/payment";
    private static final String REPLAY = "X-PARTNER-IDEMPOTENT-REPLAY";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private RequestFingerprint fingerprint;

    @Autowired
    private DataSource dataSource;

    @Autowired
    private CommandGateway commands;

    @Autowired
    private ApplicationContext context;

    /**
     * Axon's auto-configuration registers every command handler interceptor bean on the command bus; the fence and
     * the vault register theirs themselves. A bean of ours that were an interceptor too would run twice per command
     * (the fence would read and lock the key's row twice).
     */
    @Test
    void theServicesCommandInterceptorsAreRegisteredOnceEachNotAlsoAsBeans() {
        assertThat(context.getBeansOfType(MessageHandlerInterceptor.class).values())
                .as("handler interceptor beans of the service, which Axon would register a second time")
                .filteredOn(interceptor -> interceptor.getClass().getName().startsWith("io.paysession."))
                .isEmpty();
    }

    @Test
    void theSameRequestWithTheSameKeyGetsTheFirstAnswerAgainAndCreatesNothing() {
        TestPartner partner = registeredPartner("idem-replay");
        String body = cardPayment("4242424242424242", "123").toString();

        Answer first = partner.post(INIT, body, "order-1001");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.headers().firstValue(REPLAY)).isEmpty();
        String sessionId = first.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

        Answer again = partner.post(INIT, body, "order-1001");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.headers().firstValue(REPLAY)).contains("true");
        assertThat(again.text()).as("the first answer, byte for byte, although the session has moved on since")
                .isEqualTo(first.text());
        assertThat(partner.post("/api/v1/session/status", sessionRef(sessionId)).session().path("next_action").asText())
                .isEqualTo("confirm");
        assertThat(sessionsCreatedWithKey(partner, "order-1001")).isEqualTo(1);
    }

    @Test
    void aRetrySerializedDifferentlyIsStillTheSameRequest() throws Exception {
        TestPartner partner = registeredPartner("idem-format");
        ObjectNode body = cardPayment("5555555555554444", "321");
        Answer first = partner.post(INIT, body.toString(), "order-2002");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);

        String reorderedAndPretty = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(reversed(body));
        assertThat(reorderedAndPretty).isNotEqualTo(body.toString());
        Answer again = partner.post(INIT, reorderedAndPretty, "order-2002");
        assertThat(again.headers().firstValue(REPLAY)).contains("true");
        assertThat(again.text()).isEqualTo(first.text());
        assertThat(sessionsCreatedWithKey(partner, "order-2002")).isEqualTo(1);
    }

    @Test
    void theSameKeyWithAnotherRequestIsRefusedAndRunsNothing() {
        TestPartner partner = registeredPartner("idem-mismatch");
        ObjectNode body = cardPayment("4242424242424242", "123");
        assertThat(partner.post(INIT, body.toString(), "order-3003").status()).isEqualTo(200);

        ObjectNode otherAmount = body.deepCopy();
        otherAmount.putObject("amount_details").put("amount", 20000).put("currency", "RUB");
        assertMismatch(partner.post(INIT, otherAmount.toString(), "order-3003"));
        assertMismatch(partner.post("/api/v2/session/init/payment", body.toString(), "order-3003"));
        assertMismatch(partner.post("/api/v1/session/create", body.toString(), "order-3003"));

        assertThat(sessionsCreatedWithKey(partner, "order-3003")).isEqualTo(1);
    }

    @Test
    void aKeyBelongsToItsProjectOnly() {
        TestPartner shop = registeredPartner("idem-shop");
        TestPartner other = registeredPartner("idem-other");
        String body = cardPayment("4242424242424242", "123").toString();

        Answer mine = shop.post(INIT, body, "shared-key-1");
        Answer theirs = other.post(INIT, body, "shared-key-1");

        assertThat(mine.status()).isEqualTo(200);
        assertThat(theirs.status()).isEqualTo(200);
        assertThat(theirs.headers().firstValue(REPLAY)).isEmpty();
        assertThat(theirs.session().path("id").asText()).isNotEqualTo(mine.session().path("id").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "k", "key with spaces", "key.dot", "key/slash", "key:colon",
            "a123456789b123456789c123456789d123456789e123456789f123456789g1234"})
    void aMalformedKeyIsRefusedBeforeAnythingRuns(String key) {
        TestPartner partner = registeredPartner("idem-malformed");
        Answer answer = partner.post(INIT, cardPayment("4242424242424242", "123").toString(), key);

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("invalid_request");
        assertThat(answer.errorDescription()).contains("X-PARTNER-IDEMPOTENCY-KEY");
        assertThat(eventsOfProject(partner)).isZero();
    }

    @Test
    void keysOfFourAndOfSixtyFourCharactersOfTheAllowedAlphabetAreTaken() {
        TestPartner partner = registeredPartner("idem-bounds");
        String longest = "A-_z0123456789".repeat(5).substring(0, 64);
        for (String key : List.of("ab-_", longest)) {
            // a payment of its own for each key: the same signed body under a second key is refused as a replay
            Answer answer = partner.post(INIT, cardPayment("4242424242424242", "123").put("metadata", key).toString(),
                    key);
            assertThat(answer.status()).as(key + ": " + answer).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/session/status", "/api/v2/session/status", "/api/v1/token", "/api/v1/token/info",
            "/api/v1/recurrent/status", "/api/v1/recurrent/disable", "/cds/v1/tokenize/elements"})
    void aMethodThatTakesNoKeyRefusesOne(String path) {
        TestPartner partner = registeredPartner("idem-unsupported");
        Answer answer = partner.post(path, "{}", "key-" + Math.abs(path.hashCode()));

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("idempotency_key_not_supported");
    }

    @Test
    void theWidgetsTokenizationTakesNoKeyEither() {
        byte[] body = "{\"card\":{\"number\":\"4242424242424242\"}}".getBytes(StandardCharsets.UTF_8);
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/cds/v1/tokenize/card"))
                .header("Content-Type", "application/json")
                .header("X-PUBLIC-TOKEN", "0".repeat(64))
                .header("X-PARTNER-IDEMPOTENCY-KEY", "widget-1")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("idempotency_key_not_supported");
    }

    @Test
    void theBankListTakesNoKeyEither() {
        TestPartner partner = registeredPartner("idem-banks");
        byte[] empty = new byte[0];
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/fps/banks"))
                .header("X-PARTNER-PROJECT", partner.project())
                .header("X-PARTNER-SIGN", partner.sign(empty))
                .header("X-PARTNER-IDEMPOTENCY-KEY", "banks-1")
                .GET().build());

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("idempotency_key_not_supported");
    }

    @Test
    void aRefusalIsKeptWithTheKeyLikeAnyOtherAnswer() {
        TestPartner partner = registeredPartner("idem-refusal");
        ObjectNode noCustomer = cardPayment("4242424242424242", "123");
        noCustomer.remove("customer");

        Answer first = partner.post(INIT, noCustomer.toString(), "order-4004");
        Answer again = partner.post(INIT, noCustomer.toString(), "order-4004");

        assertThat(first.status()).isEqualTo(400);
        assertThat(first.errorCode()).isEqualTo("invalid_request");
        assertThat(again.status()).isEqualTo(400);
        assertThat(again.text()).isEqualTo(first.text());
        assertThat(again.headers().firstValue(REPLAY)).contains("true");
    }

    @Test
    void aConfirmRepeatedWithItsKeyConfirmsOnce() {
        TestPartner partner = registeredPartner("idem-confirm");
        String sessionId = readyToConfirm(partner);
        String confirm = sessionRef(sessionId).toString();

        Answer first = partner.post("/api/v1/session/confirm", confirm, "confirm-" + sessionId);
        Answer again = partner.post("/api/v1/session/confirm", confirm, "confirm-" + sessionId);
        Answer withoutKey = partner.post("/api/v1/session/confirm", confirm);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(again.text()).isEqualTo(first.text());
        assertThat(again.headers().firstValue(REPLAY)).contains("true");
        assertThat(withoutKey.errorCode()).as("a confirm that really runs a second time is refused")
                .isEqualTo("session_wrong_state");
        assertThat(eventsOfType(sessionId, "PaymentConfirmedEvent")).isEqualTo(1);
    }

    @Test
    void aRefundRepeatedWithItsKeyRefundsOnce() {
        TestPartner partner = registeredPartner("idem-refund");
        String sessionId = readyToConfirm(partner);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        ObjectNode refund = sessionRef(sessionId);
        refund.putObject("amount_details").put("amount", 3000).put("currency", "rub");

        Answer first = partner.post("/api/v1/session/refund", refund.toString(), "refund-" + sessionId);
        Answer again = partner.post("/api/v1/session/refund", refund.toString(), "refund-" + sessionId);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(again.text()).isEqualTo(first.text());
        WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT);
        JsonNode refunds = partner.post("/api/v1/session/status", sessionRef(sessionId)).session()
                .path("acquiring_payments").path(0).path("refunds");
        assertThat(refunds).hasSize(1);
        assertThat(eventsOfType(sessionId, "RefundRequestedEvent")).isEqualTo(1);
    }

    @Test
    void aCaptureRepeatedWithItsKeyCapturesOnce() {
        TestPartner partner = registeredPartner("idem-capture", "delayed");
        String sessionId = readyToConfirm(partner);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
        ObjectNode capture = sessionRef(sessionId);
        capture.putObject("amount_details").put("amount", 6000).put("currency", "rub");

        Answer first = partner.post("/api/v1/session/capture", capture.toString(), "capture-" + sessionId);
        Answer again = partner.post("/api/v1/session/capture", capture.toString(), "capture-" + sessionId);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(again.text()).isEqualTo(first.text());
        assertThat(again.headers().firstValue(REPLAY)).contains("true");
        assertThat(eventsOfType(sessionId, "PaymentCaptureRequestedEvent")).isEqualTo(1);
    }

    @Test
    void concurrentIdenticalRequestsCreateExactlyOneSession() throws Exception {
        TestPartner partner = registeredPartner("idem-race");
        int rounds = 20;
        int racers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        try {
            for (int round = 0; round < rounds; round++) {
                String key = "race-" + round;
                // each round a payment of its own (the same signed body under a new key is refused as a replay)
                String body = cardPayment("4242424242424242", "123").put("metadata", "order " + round).toString();
                List<Answer> answers = Race.run(pool, Collections.nCopies(racers, () -> partner.post(INIT, body, key)));

                Race.assertOneSessionAnswered(answers, "round " + round);
                assertThat(sessionsCreatedWithKey(partner, key)).as("round " + round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void everyDecisionIsRecordedSoThatAnAuditTellsAReplayFromANewRequest() {
        TestPartner partner = registeredPartner("idem-audit");
        ObjectNode body = cardPayment("4242424242424242", "123");
        Answer first = partner.post(INIT, body.toString(), "order-5005");
        Answer replay = partner.post(INIT, body.toString(), "order-5005");
        body.put("metadata", "another order");
        Answer mismatch = partner.post(INIT, body.toString(), "order-5005");
        String firstRequest = requestId(first);
        String sessionId = first.session().path("id").asText();

        Answer key = admin("GET", "/admin/v1/idempotency-keys/" + partner.project() + "/order-5005", null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(key.status()).as(key.toString()).isEqualTo(200);
        JsonNode decisions = key.body().path("idempotency_key").path("decisions");
        assertThat(decisions).extracting(decision -> decision.path("decision").asText())
                .containsExactly("first_use", "replay", "params_mismatch");
        assertThat(decisions.path(0).path("request_id").asText()).isEqualTo(firstRequest);
        assertThat(decisions.path(0).path("session_id").asText()).isEqualTo(sessionId);
        assertThat(decisions.path(1).path("request_id").asText()).isEqualTo(requestId(replay));
        assertThat(decisions.path(1).path("original_request_id").asText()).isEqualTo(firstRequest);
        assertThat(decisions.path(2).path("request_id").asText()).isEqualTo(requestId(mismatch));
        assertThat(key.body().path("idempotency_key").path("kept").path("state").asText()).isEqualTo("completed");

        Answer history = admin("GET", "/admin/v1/sessions/" + sessionId + "/events", null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(history.body().path("events").path(0).path("request").path("request_id").asText())
                .as("the events carry the first request only").isEqualTo(firstRequest);
        assertThat(history.body().path("events")).allSatisfy(event ->
                assertThat(event.path("request").path("request_id").asText("")).isNotEqualTo(requestId(replay)));
        assertThat(history.body().path("idempotent_requests")).extracting(decision -> decision.path("decision").asText())
                .containsExactly("first_use", "replay", "params_mismatch");
    }

    @Test
    void aKeyWhoseRequestIsStillRunningOnAnotherNodeIsRefused() {
        TestPartner partner = registeredPartner("idem-running");
        String body = cardPayment("4242424242424242", "123").toString();
        holdKeyAsAnotherNode(partner, "order-6006", INIT, body, "req_othernode", null, "1 minute");

        Answer answer = partner.post(INIT, body, "order-6006");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("idempotency_key_already_exists");
        assertThat(eventsOfProject(partner)).isZero();
    }

    @Test
    void aRequestWhoseNodeDiedAfterItsCommandWasStoredIsAnsweredFromItsEvents() {
        TestPartner partner = registeredPartner("idem-recover");
        String body = cardPayment("4242424242424242", "123").toString();
        Answer first = partner.post(INIT, body, "order-7007");
        assertThat(first.status()).isEqualTo(200);
        // what the node leaves behind when it dies between storing the command's events and keeping the answer
        jdbc.update("""
                update idempotency_key set state = 'running', response_status = null, response_body = null,
                    response_content_type = null, completed_at = null, lease_until = now() - interval '1 second'
                where project = ? and idempotency_key = ?""", partner.project(), "order-7007");

        Answer retry = partner.post(INIT, body, "order-7007");

        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        assertThat(retry.headers().firstValue(REPLAY)).contains("true");
        assertThat(retry.text()).as("the session as the dead request's events left it").isEqualTo(first.text());
        assertThat(sessionsCreatedWithKey(partner, "order-7007")).isEqualTo(1);
        assertThat(partner.post(INIT, body, "order-7007").text()).isEqualTo(first.text());
        Answer key = admin("GET", "/admin/v1/idempotency-keys/" + partner.project() + "/order-7007", null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(key.body().path("idempotency_key").path("decisions"))
                .extracting(decision -> decision.path("decision").asText())
                .containsExactly("first_use", "recovered", "replay");
    }

    @Test
    void aRequestWhoseNodeDiedBeforeItsCommandWasStoredRunsAgainOnce() {
        TestPartner partner = registeredPartner("idem-rerun");
        String sessionId = readyToConfirm(partner);
        String confirm = sessionRef(sessionId).toString();
        holdKeyAsAnotherNode(partner, "confirm-8008", "/api/v1/session/confirm", confirm, "req_deadnode", sessionId,
                "-1 second");

        Answer retry = partner.post("/api/v1/session/confirm", confirm, "confirm-8008");

        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        assertThat(retry.headers().firstValue(REPLAY)).as("it ran: nothing of the dead request was stored").isEmpty();
        assertThat(retry.session().path("actions").has("confirm")).isTrue();
        assertThat(eventsOfType(sessionId, "PaymentConfirmedEvent")).isEqualTo(1);
        Answer key = admin("GET", "/admin/v1/idempotency-keys/" + partner.project() + "/confirm-8008", null,
                TestServiceProperties.ADMIN_TOKEN);
        JsonNode decision = key.body().path("idempotency_key").path("decisions").path(0);
        assertThat(decision.path("decision").asText()).isEqualTo("first_use");
        assertThat(decision.path("original_request_id").asText()).isEqualTo("req_deadnode");
    }

    @Test
    void aRequestWhoseKeyWasTakenOverWhileItWasHeldUpStoresNothingAndLeavesTheNewOwnersKeyAlone() throws Exception {
        TestPartner partner = registeredPartner("idem-fence");
        String body = cardPayment("4242424242424242", "123").put("metadata", "fenced").toString();
        CompletableFuture<Answer> heldUp;
        try (CardVaultLock vaultLock = CardVaultLock.hold(dataSource)) {
            heldUp = CompletableFuture.supplyAsync(() -> partner.post(INIT, body, "fence-9009"));
            vaultLock.awaitARequestWaiting();
            // what another node does when this one is paused past its lease: it takes the key over
            assertThat(jdbc.update("""
                    update idempotency_key set owner_request_id = 'req_successor',
                                               lease_until = now() + interval '1 minute'
                    where project = ? and idempotency_key = ? and state = 'running'""",
                    partner.project(), "fence-9009")).isEqualTo(1);
        }
        Answer answer = heldUp.get(30, TimeUnit.SECONDS);

        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("idempotency_key_already_exists");
        assertThat(sessionsCreatedWithKey(partner, "fence-9009")).as("its command never ran").isZero();
        assertThat(jdbc.queryForMap("select owner_request_id, state from idempotency_key where project = ? "
                + "and idempotency_key = ?", partner.project(), "fence-9009"))
                .containsEntry("owner_request_id", "req_successor").containsEntry("state", "running");
    }

    @Test
    void aCommandOfARequestThatNoLongerHoldsItsKeyIsRefusedInsideItsTransaction() {
        TestPartner partner = registeredPartner("idem-fence-command");
        String sessionId = readyToConfirm(partner);
        String confirm = sessionRef(sessionId).toString();
        // the key belongs to another request now (it took the key over while this one was paused)
        holdKeyAsAnotherNode(partner, "fence-9010", "/api/v1/session/confirm", confirm, "req_successor", sessionId,
                "1 minute");
        CommandMessage<Object> paused = GenericCommandMessage.asCommandMessage(
                new ConfirmSessionCommand(SessionId.of(sessionId), partner.project())).andMetaData(Map.of(
                RequestMetadataKeys.PROJECT, partner.project(), RequestMetadataKeys.IDEMPOTENCY_KEY, "fence-9010",
                RequestMetadataKeys.REQUEST_ID, "req_paused", IdempotencyFence.OWNER, "req_paused"));

        assertThatThrownBy(() -> commands.sendAndWait(paused)).isInstanceOfSatisfying(PaymentsException.class,
                refusal -> assertThat(refusal.code()).isEqualTo(ErrorCode.IDEMPOTENCY_KEY_ALREADY_EXISTS));
        assertThat(eventsOfType(sessionId, "PaymentConfirmedEvent")).isZero();

        CommandMessage<Object> owner = paused.andMetaData(Map.of(RequestMetadataKeys.REQUEST_ID, "req_successor",
                IdempotencyFence.OWNER, "req_successor"));
        commands.sendAndWait(owner);
        assertThat(eventsOfType(sessionId, "PaymentConfirmedEvent")).as("the key's owner confirms").isEqualTo(1);
    }

    /** A key row as another node writes it when it claims the key for the same request. */
    private void holdKeyAsAnotherNode(TestPartner partner, String key, String path, String body, String owner,
                                      String sessionId, String leaseFromNow) {
        String hash = fingerprint.of("POST", path, null,
                RequestFingerprint.canonicalBody(body.getBytes(StandardCharsets.UTF_8)));
        jdbc.update("""
                insert into idempotency_key (project, idempotency_key, request_hash, hash_key_id, endpoint, state,
                                             owner_request_id, lease_until, session_id, created_at, expires_at)
                values (?, ?, ?, ?, ?, 'running', ?, now() + ?::interval, ?, now(), now() + interval '1 day')""",
                partner.project(), key, hash, fingerprint.activeKeyId(), "POST " + path, owner, leaseFromNow,
                sessionId);
    }

    private String readyToConfirm(TestPartner partner) {
        Answer init = partner.post(INIT, cardPayment("4242424242424242", "123"));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        return sessionId;
    }

    private static void assertMismatch(Answer answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("idempotency_key_params_mismatch");
        assertThat(answer.body().path("status").asText()).isEqualTo("error");
    }

    private static String requestId(Answer answer) {
        return answer.headers().firstValue("X-Request-Id").orElseThrow();
    }

    private long sessionsCreatedWithKey(TestPartner partner, String key) {
        return Race.sessionsCreatedWithKey(jdbc, partner.project(), key);
    }

    private long eventsOfProject(TestPartner partner) {
        return jdbc.queryForObject("""
                select count(*) from domain_event_entry
                where convert_from(meta_data, 'UTF8')::jsonb ->> 'project' = ?""", Long.class, partner.project());
    }

    private long eventsOfType(String sessionId, String type) {
        return jdbc.queryForObject("select count(*) from domain_event_entry where aggregate_identifier = ? "
                + "and payload_type like ?", Long.class, sessionId, "%." + type);
    }

    /** The same members in the reverse order, at every level. */
    private static JsonNode reversed(JsonNode node) {
        if (!node.isObject()) {
            return node;
        }
        List<String> names = new ArrayList<>();
        for (Iterator<String> fields = node.fieldNames(); fields.hasNext(); ) {
            names.add(fields.next());
        }
        Collections.reverse(names);
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        names.forEach(name -> copy.set(name, reversed(node.get(name))));
        return copy;
    }
}
