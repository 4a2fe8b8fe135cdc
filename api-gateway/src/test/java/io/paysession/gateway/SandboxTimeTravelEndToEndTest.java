package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import io.paysession.gateway.support.WebhookReceiver.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sandbox's time travel over HTTP ({@code POST /sandbox/v1/clock/advance}, docs/sandbox.md "Time travel"), on a
 * service with the DEFAULT time limits of decisions.md section 6 (240 and 20 minutes to confirm, 60 and 20 minutes
 * for the payer, 5 days to capture, outcome queries over 15.5 minutes, webhook retries over 72 hours): for each, a
 * session whose time a partner moves past the limit ends as the limit says within seconds, while a session of the
 * same kind started at the same time is untouched. What is asserted is what a partner sees: answers, session status,
 * signed webhooks, its notification list.
 */
class SandboxTimeTravelEndToEndTest {

    /** "Within seconds": db-scheduler polls every second, the webhooks follow at once. */
    private static final Duration SOON = Duration.ofSeconds(15);
    private static final Duration SETUP_WAIT = Duration.ofSeconds(30);
    private static final String ADVANCE = "/sandbox/v1/clock/advance";
    private static final String STAYS_UNKNOWN = "4000000000000127";

    private static volatile String servicePublicKey;
    private static final WebhookReceiver WEBHOOKS = new WebhookReceiver(() -> servicePublicKey);
    /** The sessions whose webhooks the retry test's partner accepts; it refuses the others (500). */
    private static final Set<String> ACCEPTED_SESSIONS = ConcurrentHashMap.newKeySet();
    private static OwnService application;

    @BeforeAll
    static void start() {
        Map<String, Object> properties = new LinkedHashMap<>(TestServiceProperties.forDataDirectory(
                TestServiceProperties.newDataDirectory("payments-time-travel")));
        // the defaults of decisions.md section 6 and of the webhook retries, not the tests' short limits
        properties.put("payments.limits.confirm", "240m");
        properties.put("payments.limits.qr-app-confirm", "20m");
        properties.put("payments.limits.payer-action", "60m");
        properties.put("payments.limits.wallet-and-bank-app-payer-action", "20m");
        properties.put("payments.limits.capture", "5d");
        properties.put("payments.limits.first-outcome-query", "30s");
        properties.put("payments.limits.max-outcome-query-interval", "1h");
        properties.put("payments.limits.outcome-queries-before-error", "5");
        properties.put("payments.sandbox.long-unknown", "20m");
        properties.put("payments.webhooks.initial-retry-interval", "10s");
        properties.put("payments.webhooks.retry-window", "72h");
        application = OwnService.start(properties);
        servicePublicKey = application.servicePublicKey();
    }

    @AfterAll
    static void stop() {
        if (application != null) {
            application.close();
        }
        WEBHOOKS.close();
    }

    @Test
    void aCardSessionNotConfirmedIn240MinutesOfItsTimeIsCancelledWithConfirmTimeout() {
        TestPartner partner = partner("tt-confirm", "auto");
        String moved = init(partner, card("4242424242424242"));
        String other = init(partner, card("5555555555554444"));
        WEBHOOKS.await(moved, "ready_to_confirm", SETUP_WAIT);
        WEBHOOKS.await(other, "ready_to_confirm", SETUP_WAIT);

        Answer advanced = advance(partner, moved, "PT241M");
        assertThat(advanced.body().path("offset").asText()).isEqualTo("PT4H1M");

        JsonNode cancelled = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
        assertThat(cancelled.path("error").path("code").asText()).isEqualTo("confirm_timeout");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(moved)).errorCode())
                .isEqualTo("session_wrong_state");
        // the other session's window is its own: still open, and it is confirmed and paid
        assertThat(status(partner, other).path("status").asText()).isEqualTo("in_progress");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(other)).status()).isEqualTo(200);
        assertThat(WEBHOOKS.await(other, "payment_finished", SETUP_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
    }

    @Test
    void aQrApplicationSessionIsCancelledWithConfirmTimeoutOnlyOnceItsTimePasses20Minutes() throws Exception {
        TestPartner partner = partner("tt-qr-confirm", "auto");
        String moved = init(partner, qrApp());
        String other = init(partner, qrApp());
        WEBHOOKS.await(moved, "ready_to_confirm", SETUP_WAIT);
        WEBHOOKS.await(other, "ready_to_confirm", SETUP_WAIT);

        advance(partner, moved, "PT19M");
        Thread.sleep(3_000);
        assertThat(status(partner, moved).path("status").asText()).as("19 minutes are inside the window")
                .isEqualTo("in_progress");
        assertThat(types(moved)).doesNotContain("payment_finished");

        Answer advanced = advance(partner, moved, "PT2M");
        assertThat(advanced.body().path("offset").asText()).as("advances add up").isEqualTo("PT21M");
        JsonNode cancelled = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
        assertThat(cancelled.path("error").path("code").asText()).isEqualTo("confirm_timeout");
        assertThat(cancelled.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("confirm_timeout");

        assertThat(status(partner, other).path("status").asText()).isEqualTo("in_progress");
        assertThat(types(other)).containsExactly("ready_to_confirm");
    }

    @Test
    void aThreeDSecurePayerWhoDoesNotActIn60MinutesOfTheSessionsTimeFailsItWithActionTimeout() {
        TestPartner partner = partner("tt-3ds", "auto");
        String moved = confirmed(partner, card("4000000000003220"));
        String other = confirmed(partner, card("4000000000003220"));
        WEBHOOKS.await(moved, "action_required", SETUP_WAIT);
        WEBHOOKS.await(other, "action_required", SETUP_WAIT);

        advance(partner, moved, "PT61M");

        JsonNode failed = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(failed.path("status").asText()).isEqualTo("cancelled");
        assertThat(failed.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("action_timeout");
        JsonNode waiting = status(partner, other);
        assertThat(waiting.path("status").asText()).isEqualTo("in_progress");
        assertThat(waiting.path("acquiring_payments").path(0).path("status").asText()).isEqualTo("pending");
        assertThat(types(other)).doesNotContain("payment_finished");
    }

    @Test
    void aWalletPayerWhoDoesNotActIn20MinutesOfTheSessionsTimeFailsItWithActionTimeout() {
        TestPartner partner = partner("tt-wallet", "auto");
        String moved = confirmed(partner, wallet());
        String other = confirmed(partner, wallet());
        WEBHOOKS.await(moved, "action_required", SETUP_WAIT);
        WEBHOOKS.await(other, "action_required", SETUP_WAIT);

        advance(partner, moved, "PT21M");

        JsonNode failed = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(failed.path("status").asText()).isEqualTo("cancelled");
        assertThat(failed.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("action_timeout");
        assertThat(status(partner, other).path("status").asText()).isEqualTo("in_progress");
        assertThat(types(other)).doesNotContain("payment_finished");
    }

    @Test
    void anInstantPaymentQrNotPaidIn60MinutesOfTheSessionsTimeExpiresWithQrExpired() {
        TestPartner partner = partner("tt-fps", "auto");
        String moved = confirmed(partner, instantPayment());
        String other = confirmed(partner, instantPayment());
        WEBHOOKS.await(moved, "action_required", SETUP_WAIT);
        WEBHOOKS.await(other, "action_required", SETUP_WAIT);

        advance(partner, moved, "PT61M");

        JsonNode expired = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(expired.path("status").asText()).isEqualTo("cancelled");
        assertThat(expired.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("qr_expired");
        assertThat(status(partner, other).path("status").asText()).isEqualTo("in_progress");
        assertThat(types(other)).doesNotContain("payment_finished");
    }

    @Test
    void aHoldNotCapturedIn5DaysOfTheSessionsTimeIsReleasedAndTheSessionCancelledWithCaptureTimeout() {
        TestPartner partner = partner("tt-hold", "delayed");
        String moved = confirmed(partner, card("4242424242424242"));
        String other = confirmed(partner, card("5555555555554444"));
        WEBHOOKS.await(moved, "ready_to_capture", SETUP_WAIT);
        WEBHOOKS.await(other, "ready_to_capture", SETUP_WAIT);

        advance(partner, moved, "P5DT1M");

        JsonNode released = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(released.path("status").asText()).isEqualTo("cancelled");
        assertThat(released.path("error").path("code").asText()).isEqualTo("capture_timeout");
        assertThat(partner.post("/api/v1/session/capture", sessionRef(moved)).errorCode())
                .isEqualTo("session_wrong_state");
        // the other hold is still there to capture
        assertThat(partner.post("/api/v1/session/capture", sessionRef(other)).status()).isEqualTo(200);
        assertThat(WEBHOOKS.await(other, "payment_finished", SETUP_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
    }

    @Test
    void outcomeQueriesRunThroughTheAdvanceToErrorAfter15AndAHalfMinutesThenTheRailAnswersAfter20() {
        TestPartner partner = partner("tt-unknown", "auto");
        String moved = confirmed(partner, card(STAYS_UNKNOWN));
        String other = confirmed(partner, card(STAYS_UNKNOWN));
        // the acquirer's answer was lost: the first query is set 30 s after it (set-up only, not a partner's view)
        awaitEvent(moved, "PaymentOutcomeUnknownEvent");
        awaitEvent(other, "PaymentOutcomeUnknownEvent");

        advance(partner, moved, "PT16M");

        // five queries (30 s, then 1, 2, 4 and 8 minutes later) all in the advance: the outcome is overdue
        JsonNode inError = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(inError.path("status").asText()).as(inError.toString()).isEqualTo("error");
        assertThat(inError.path("error").path("code").asText()).isEqualTo("provider_timeout");
        assertThat(inError.path("acquiring_payments").path(0).path("status").asText()).isEqualTo("failed");
        assertThat(status(partner, other).path("status").asText()).as("the other session's queries are on the"
                + " service's clock: its outcome is not overdue").isEqualTo("in_progress");

        // the sandbox acquirer knows the outcome 20 minutes after the payment, in the session's time
        advance(partner, moved, "PT1H");
        await().atMost(SOON).until(() -> status(partner, moved).path("status").asText().equals("accepted"));
        await().atMost(SOON).until(() -> distinctOfType(moved, "payment_finished") == 2);
        assertThat(status(partner, other).path("status").asText()).isEqualTo("in_progress");
        assertThat(types(other)).doesNotContain("payment_finished");
    }

    @Test
    void aPayoutNotConfirmedIn240MinutesOfItsTimeIsCancelledWithConfirmTimeout() {
        TestPartner partner = partner("tt-payout", "auto");
        String moved = initPayout(partner);
        String other = initPayout(partner);
        WEBHOOKS.await(moved, "ready_to_confirm", SETUP_WAIT);
        WEBHOOKS.await(other, "ready_to_confirm", SETUP_WAIT);

        advance(partner, moved, "PT241M");

        JsonNode cancelled = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
        assertThat(cancelled.path("error").path("code").asText()).isEqualTo("confirm_timeout");
        assertThat(cancelled.path("payments").path(0).path("status").asText()).isEqualTo("failed");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(other)).status()).isEqualTo(200);
        assertThat(WEBHOOKS.await(other, "payment_finished", SETUP_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
    }

    @Test
    void aRefundMadeAfterAnAdvanceHasItsOwnOutcomeQueriesMovedByTheNextOne() {
        TestPartner partner = partner("tt-refund", "auto");
        String moved = confirmed(partner, card(STAYS_UNKNOWN));
        String other = confirmed(partner, card(STAYS_UNKNOWN));
        awaitEvent(moved, "PaymentOutcomeUnknownEvent");
        awaitEvent(other, "PaymentOutcomeUnknownEvent");
        // 21 minutes: the acquirer knows the payment at the first query
        advance(partner, moved, "PT21M");
        JsonNode paid = WEBHOOKS.await(moved, "payment_finished", SOON).session();
        assertThat(paid.path("status").asText()).as(paid.toString()).isEqualTo("accepted");

        // a refund now is unknown for 20 minutes of the session's time from now: the earlier advance does not count
        ObjectNode refund = sessionRef(moved);
        refund.putObject("amount_details").put("amount", 4_000).put("currency", "rub");
        assertThat(partner.post("/api/v1/session/refund", refund).status()).isEqualTo(200);
        awaitEvent(moved, "RefundOutcomeUnknownEvent");
        advance(partner, moved, "PT16M");
        JsonNode inError = WEBHOOKS.await(moved, "payment_refunded", SOON).session()
                .path("acquiring_payments").path(0).path("refunds").path(0);
        assertThat(inError.path("status").asText()).as(inError.toString()).isEqualTo("error");
        assertThat(inError.path("error").path("code").asText()).isEqualTo("provider_timeout");

        advance(partner, moved, "PT1H");
        await().atMost(SOON).until(() -> status(partner, moved).path("acquiring_payments").path(0).path("refunds")
                .path(0).path("status").asText().equals("accepted"));
        assertThat(status(partner, other).path("status").asText()).isEqualTo("in_progress");
        assertThat(types(other)).doesNotContain("payment_finished");
    }

    @Test
    void theRetriesOfASessionsWebhooksSeeItsTimeAndEndWithItsRetryWindow() {
        TestPartner partner = partner("tt-retries", "auto");
        // the partner's endpoint fails every webhook but those of the sessions it is told to accept
        WEBHOOKS.behave(partner.project(), request -> ACCEPTED_SESSIONS.contains(request.sessionId())
                ? Reply.now(200) : Reply.now(500));
        String moved = init(partner, card("4242424242424242"));
        String other = init(partner, card("5555555555554444"));
        await().atMost(SETUP_WAIT).until(() -> attempts(partner, moved) >= 1 && attempts(partner, other) >= 1);

        // 73 hours of the session's time: past the 72-hour retry window of its notification
        advance(partner, moved, "PT73H");

        await().atMost(SOON).until(() -> state(partner, moved).equals("parked"));
        JsonNode retried = notification(partner, other);
        assertThat(retried.path("state").asText()).as("the other session's notification is retried on")
                .isEqualTo("pending");
        assertThat(retried.path("attempts").size()).as("on the service's clock: 10 s, then 20 s, ...").isLessThan(5);

        // the session's own 240 minutes passed too: its payment_finished comes once the partner answers again
        ACCEPTED_SESSIONS.add(moved);
        JsonNode cancelled = WEBHOOKS.await(moved, "payment_finished", SETUP_WAIT).session();
        assertThat(cancelled.path("error").path("code").asText()).isEqualTo("confirm_timeout");
        assertThat(state(partner, moved)).as("the parked one stays parked").isEqualTo("parked");
        assertThat(state(partner, other)).isEqualTo("pending");
        assertThat(status(partner, other).path("status").asText()).isEqualTo("in_progress");
    }

    @Test
    void refusalsAnotherPartnersSessionBadDurationsAndUnsignedRequests() {
        TestPartner partner = partner("tt-refusals", "auto");
        TestPartner stranger = partner("tt-stranger", "auto");
        String session = init(partner, card("4242424242424242"));
        WEBHOOKS.await(session, "ready_to_confirm", SETUP_WAIT);

        Answer foreign = stranger.post(ADVANCE, advanceBody(session, "PT1H"));
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.errorCode()).as("another partner's session is as unknown as none")
                .isEqualTo("session_not_found");
        assertThat(partner.post(ADVANCE, advanceBody("ps_999999999", "PT1H")).errorCode())
                .isEqualTo("session_not_found");
        for (String bad : List.of("PT0S", "-PT5M", "PT-5M", "21 minutes", "P1M", "P1Y", "P31D", "PT721H", "")) {
            Answer refused = partner.post(ADVANCE, advanceBody(session, bad));
            assertThat(refused.status()).as(bad + ": " + refused).isEqualTo(400);
            assertThat(refused.errorCode()).as(bad).isEqualTo("invalid_request");
        }
        Answer missing = partner.post(ADVANCE, sessionRef(session).toString());
        assertThat(missing.errorCode()).isEqualTo("invalid_request");
        Answer notJson = partner.post(ADVANCE, "{\"session_id\":");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.errorCode()).isEqualTo("invalid_request");

        byte[] body = advanceBody(session, "PT1H").getBytes(StandardCharsets.UTF_8);
        Answer unsigned = partner.send(ADVANCE, body, Map.of("X-PARTNER-PROJECT", partner.project()));
        assertThat(unsigned.status()).isEqualTo(401);
        assertThat(unsigned.errorCode()).isEqualTo("authentication_error");
        Answer forged = partner.send(ADVANCE, body, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", stranger.sign(body)));
        assertThat(forged.errorCode()).isEqualTo("authentication_error");

        // none of it moved the session: its 240-minute window is still open
        Answer ok = advance(partner, session, "P30D");
        assertThat(ok.body().path("offset").asText()).isEqualTo("PT720H");
        assertThat(WEBHOOKS.await(session, "payment_finished", SOON).session().path("error").path("code").asText())
                .isEqualTo("confirm_timeout");
    }

    // ---------- the partner's side ----------

    private static Answer advance(TestPartner partner, String sessionId, String duration) {
        Answer answer = partner.post(ADVANCE, advanceBody(sessionId, duration));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.body().path("session_id").asText()).isEqualTo(sessionId);
        assertThat(answer.body().path("advanced_by").asText()).isEqualTo(Duration.parse(duration).toString());
        return answer;
    }

    private static String advanceBody(String sessionId, String duration) {
        return JsonNodeFactory.instance.objectNode().put("session_id", sessionId).put("duration", duration).toString();
    }

    private static String init(TestPartner partner, ObjectNode body) {
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        return init.session().path("id").asText();
    }

    private static String confirmed(TestPartner partner, ObjectNode body) {
        String sessionId = init(partner, body);
        WEBHOOKS.await(sessionId, "ready_to_confirm", SETUP_WAIT);
        Answer confirm = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        return sessionId;
    }

    private static String initPayout(TestPartner partner) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_method").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242");
        body.putObject("amount_details").put("amount", 15_000).put("currency", "rub");
        body.putObject("participant_details").putObject("recipient").put("full_name", "John Doe");
        body.put("metadata", "payout " + UUID.randomUUID());
        Answer init = partner.post("/api/v1/session/init/payout", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        return init.session().path("id").asText();
    }

    private static JsonNode status(TestPartner partner, String sessionId) {
        Answer answer = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.session();
    }

    /** The session's only notification, as the partner's notification list shows it. */
    private static JsonNode notification(TestPartner partner, String sessionId) {
        ObjectNode query = sessionRef(sessionId).put("order", "oldest_first");
        Answer answer = partner.post("/api/v1/notification/list", query);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body().path("notifications").path(0);
    }

    private static String state(TestPartner partner, String sessionId) {
        return notification(partner, sessionId).path("state").asText();
    }

    private static int attempts(TestPartner partner, String sessionId) {
        return notification(partner, sessionId).path("attempts").size();
    }

    private static List<String> types(String sessionId) {
        return WEBHOOKS.forSession(sessionId).stream().map(Received::type).distinct().toList();
    }

    private static long distinctOfType(String sessionId, String type) {
        return WEBHOOKS.forSession(sessionId).stream().filter(webhook -> webhook.type().equals(type))
                .map(Received::webhookId).distinct().count();
    }

    private static void awaitEvent(String sessionId, String type) {
        JdbcTemplate jdbc = application.bean(JdbcTemplate.class);
        await().atMost(SETUP_WAIT).until(() -> jdbc.queryForList(
                "select payload_type from domain_event_entry where aggregate_identifier = ?", String.class, sessionId)
                .stream().anyMatch(payload -> payload.endsWith("." + type)));
    }

    private static TestPartner partner(String name, String captureMode) {
        String project = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        return application.register(project, WEBHOOKS.url(project), captureMode);
    }

    // ---------- bodies: each one different (a signed init body runs once) ----------

    private static ObjectNode card(String number) {
        return EndToEndTestBase.cardPayment(number, "123").put("metadata", "order " + UUID.randomUUID());
    }

    private static ObjectNode payment(ObjectNode details) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("payment_details", details);
        body.putObject("amount_details").put("amount", 10000).put("currency", "rub");
        body.putObject("customer").put("reference", "customer-tt");
        body.put("metadata", "order " + UUID.randomUUID());
        return body;
    }

    private static ObjectNode qrApp() {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "internet_banking");
        details.putObject("internet_banking").put("type", "qr_app_pay").putObject("qr_app_pay")
                .put("phone", "79261234567");
        return payment(details);
    }

    private static ObjectNode wallet() {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "wallet");
        details.putObject("wallet").put("type", "ewallet");
        return payment(details);
    }

    private static ObjectNode instantPayment() {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "faster_payment_system");
        details.putObject("faster_payment_system").put("description", "Order " + UUID.randomUUID());
        return payment(details);
    }

    private static ObjectNode sessionRef(String sessionId) {
        return EndToEndTestBase.sessionRef(sessionId);
    }

    private static String baseUrl() {
        return application.baseUrl();
    }
}
