package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.PayerPage;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every way to accept money, over the signed API of the running service, with the payer acting on the
 * hosted pages and every webhook's signature verified by the receiver.
 */
class AcquiringMethodsEndToEndTest extends EndToEndTestBase {

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aThreeDSecureCardIsPaidOnceThePayerPassesTheChallenge() {
        TestPartner partner = registeredPartner("tds");
        String sessionId = confirmed(partner, "v1", cardPayment("4000000000003220", "123"));

        Received action = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT);
        assertThat(action.signatureValid()).isTrue();
        JsonNode session = action.session();
        assertThat(session.path("actions").has("confirm")).isTrue();
        JsonNode payment = session.path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("pending");
        JsonNode interaction = payment.path("customer_interaction");
        assertThat(interaction.path("type").asText()).isEqualTo("redirect");
        JsonNode redirect = interaction.path("redirect");
        assertThat(redirect.path("url").asText()).startsWith(baseUrl().replace("127.0.0.1", "localhost") + "/sandbox/interactions/");
        assertThat(redirect.path("base_url").asText()).isEqualTo(redirect.path("url").asText());
        assertThat(redirect.path("method").asText()).isEqualTo("GET");
        assertThat(redirect.path("qs").isObject()).isTrue();
        assertThat(redirect.path("params").isObject()).isTrue();

        String page = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl()
                + URI.create(redirect.path("url").asText()).getPath())).GET().build()).text();
        assertThat(page).contains("3-D Secure", "100.00 RUB", "id=\"approve\"", "id=\"decline\"");

        Answer approved = payerAnswers(redirect.path("url").asText(), true);
        assertThat(approved.body().path("result").asText()).isEqualTo("approved");
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        assertThat(finished.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("succeeded");
        assertThat(payerAnswers(redirect.path("url").asText(), false).errorCode())
                .as("a payer action is answered once").isEqualTo("session_wrong_state");
    }

    @Test
    void aFailedChallengeFailsThePaymentWith3dsError() {
        TestPartner partner = registeredPartner("tdsfail");
        String sessionId = confirmed(partner, "v2", cardPayment("4000000000003220", "123"));
        String url = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session()
                .path("payment_list").path(0).path("customer_interaction").path("redirect").path("url").asText();

        payerAnswers(url, false);

        JsonNode session = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(session.path("status").asText()).isEqualTo("cancelled");
        assertThat(session.path("payment_list").path(0).path("error").path("code").asText()).isEqualTo("3DS_error");
    }

    @Test
    void aRailThatTimesOutIsAskedAgainAndThePaymentThenSucceeds() {
        TestPartner partner = registeredPartner("timeout");
        String sessionId = confirmed(partner, "v1", cardPayment("4000000000000119", "123"));

        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("succeeded");
        assertThat(eventTypes(sessionId)).containsSubsequence("PaymentConfirmedEvent", "PaymentOutcomeUnknownEvent",
                "PaymentOutcomeQueryRequestedEvent", "PaymentSucceededEvent");
        assertThat(WEBHOOKS.forSession(sessionId)).extracting(Received::type)
                .as("an unknown outcome is not news for the partner").containsExactly("ready_to_confirm", "payment_finished");
    }

    @Test
    void anEWalletPaymentIsApprovedByThePayerOnTheWalletPage() {
        TestPartner partner = registeredPartner("wallet");
        ObjectNode body = payment(JsonNodeFactory.instance.objectNode().put("type", "wallet"));
        ((ObjectNode) body.get("payment_details")).putObject("wallet").put("type", "ewallet").putArray("ewallet");
        body.putObject("payment_options").put("return_url", "https://shop.example/back");
        String sessionId = confirmed(partner, "v2", body);

        JsonNode payment = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session().path("payment_list").path(0);
        assertThat(payment.path("payment_details")).hasToString("{\"type\":\"wallet\",\"wallet\":{\"type\":\"ewallet\",\"ewallet\":{}}}");
        String url = payment.path("customer_interaction").path("redirect").path("url").asText();
        assertThat(PayerPage.answerInBrowser(baseUrl(), url, true).status()).isEqualTo(303);
        assertThat(page(url)).contains("Approved", "https://shop.example/back");

        JsonNode session = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(session.path("status").asText()).isEqualTo("accepted");
    }

    @Test
    void aWalletPayerWhoDoesNotActInTimeFailsThePaymentWithActionTimeout() {
        TestPartner partner = registeredPartner("walletslow");
        ObjectNode body = payment(JsonNodeFactory.instance.objectNode().put("type", "wallet"));
        ((ObjectNode) body.get("payment_details")).putObject("wallet").put("type", "ewallet");
        String sessionId = confirmed(partner, "v1", body);
        WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT);

        JsonNode session = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(session.path("status").asText()).isEqualTo("cancelled");
        assertThat(session.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("action_timeout");
    }

    @Test
    void aBankApplicationPaymentWorksOnMobileAndOnDesktop() {
        TestPartner partner = registeredPartner("bankapp");
        for (String platform : List.of("mobile", "desktop")) {
            ObjectNode body = payment(JsonNodeFactory.instance.objectNode().put("type", "internet_banking"));
            ((ObjectNode) body.get("payment_details")).putObject("internet_banking").put("type", "bank_app_pay");
            body.putObject("payment_options").putObject("platform_details")
                    .put("type", platform).put("os", "android").put("browser", "chrome");
            String sessionId = confirmed(partner, "v1", body);

            JsonNode payment = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session()
                    .path("acquiring_payments").path(0);
            assertThat(payment.path("payment_options").path("platform_details").path("type").asText()).isEqualTo(platform);
            payerAnswers(payment.path("customer_interaction").path("redirect").path("url").asText(), true);
            assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                    .isEqualTo("accepted");
        }
    }

    @Test
    void aBankApplicationPaymentOfADelayedCapturePartnerIsHeldThenPartlyCaptured() {
        TestPartner partner = registeredPartner("bankhold", "delayed");
        ObjectNode body = payment(JsonNodeFactory.instance.objectNode().put("type", "internet_banking"));
        ((ObjectNode) body.get("payment_details")).putObject("internet_banking").put("type", "bank_app_pay");
        String sessionId = confirmed(partner, "v1", body);
        payerAnswers(WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session().path("acquiring_payments")
                .path(0).path("customer_interaction").path("redirect").path("url").asText(), true);

        Received ready = WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
        assertThat(ready.session().path("next_action").asText()).isEqualTo("capture");
        assertThat(ready.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("pending");

        ObjectNode capture = sessionRef(sessionId);
        capture.putObject("amount_details").put("amount", 6000).put("currency", "rub");
        Answer captured = partner.post("/api/v1/session/capture", capture);
        assertThat(captured.status()).as(captured.toString()).isEqualTo(200);
        assertThat(captured.session().path("status").asText()).isEqualTo("in_progress");
        assertThat(captured.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("succeeded");
        assertThat(captured.session().path("actions").has("capture")).isTrue();
        assertThat(captured.session().has("next_action")).isFalse();

        JsonNode session = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(session.path("status").asText()).isEqualTo("accepted");
        JsonNode amounts = session.path("acquiring_payments").path(0).path("amounts");
        assertThat(amounts.path("gross").path("amount").asLong()).isEqualTo(6000);
        // 30 + 6000 * 250 / 10000 = 180
        assertThat(amounts.path("fee").path("merchant_fee").path("amount").asLong()).isEqualTo(180);
        assertThat(amounts.path("net").path("amount").asLong()).isEqualTo(5820);
    }

    @Test
    void aQrApplicationPaymentCarriesItsPhoneAndChannelThroughCreateAndStart() {
        TestPartner partner = registeredPartner("qrapp");
        ObjectNode create = JsonNodeFactory.instance.objectNode();
        ObjectNode details = create.putObject("payment_details").put("type", "internet_banking");
        details.putObject("internet_banking").put("type", "qr_app_pay").putObject("qr_app_pay")
                .put("phone", "79261234567").put("channel", "mobile_web");
        create.putObject("payment_options").put("return_url", "bankapp://shop/return");
        String sessionId = partner.post("/api/v1/session/create", create).session().path("id").asText();
        ObjectNode start = sessionRef(sessionId);
        start.putObject("amount_details").put("amount", 5000).put("currency", "rub");
        start.putObject("customer").put("reference", "qr-customer");
        assertThat(partner.post("/api/v1/session/start/payment", start).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));

        JsonNode payment = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0);
        assertThat(payment.path("payment_details")).hasToString("{\"type\":\"internet_banking\",\"internet_banking\":"
                + "{\"type\":\"qr_app_pay\",\"qr_app_pay\":{\"phone\":\"79261234567\",\"channel\":\"mobile_web\"}}}");
        payerAnswers(payment.path("customer_interaction").path("redirect").path("url").asText(), true);
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
    }

    @Test
    void aQrApplicationPaymentNotConfirmedInTimeIsCancelledWithConfirmTimeout() {
        TestPartner partner = registeredPartner("qrlate");
        ObjectNode body = payment(JsonNodeFactory.instance.objectNode().put("type", "internet_banking"));
        ((ObjectNode) body.get("payment_details")).putObject("internet_banking").put("type", "qr_app_pay")
                .putObject("qr_app_pay").put("phone", "79261234567");
        String sessionId = partner.post("/api/v1/session/init/payment", body).session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

        JsonNode session = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(session.path("status").asText()).isEqualTo("cancelled");
        assertThat(session.path("error").path("code").asText()).isEqualTo("confirm_timeout");
        assertThat(session.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("confirm_timeout");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).errorCode())
                .isEqualTo("session_wrong_state");
    }

    @Test
    void anInstantPaymentShowsAQrDeeplinkAndEndsWithAMessageId() {
        TestPartner partner = registeredPartner("fps");
        ObjectNode body = payment(JsonNodeFactory.instance.objectNode().put("type", "faster_payment_system"));
        ((ObjectNode) body.get("payment_details")).putObject("faster_payment_system").put("description", "Order 42");
        String sessionId = confirmed(partner, "v2", body);

        JsonNode payment = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session().path("payment_list").path(0);
        assertThat(payment.path("payment_details").path("faster_payment_system").path("description").asText())
                .isEqualTo("Order 42");
        assertThat(payment.path("customer_interaction").path("type").asText()).isEqualTo("inform");
        String deeplink = payment.path("customer_interaction").path("inform").path("qr").path("content").asText();
        assertThat(page(deeplink)).contains("Instant payment");
        payerAnswers(deeplink, true);

        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("payment_list").path(0);
        assertThat(finished.path("status").asText()).isEqualTo("succeeded");
        assertThat(finished.path("transaction_info").path("fp_message_id").asText()).matches("A\\d{31}");
    }

    @Test
    void aCardOfADelayedCapturePartnerIsHeldAndCapturedInFull() {
        TestPartner partner = registeredPartner("cardhold", "delayed");
        String sessionId = confirmed(partner, "v1", cardPayment("4242424242424242", "123"));
        WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);

        ObjectNode tooMuch = sessionRef(sessionId);
        tooMuch.putObject("amount_details").put("amount", 10001).put("currency", "rub");
        assertThat(partner.post("/api/v1/session/capture", tooMuch).errorCode()).isEqualTo("capture_amount_too_large");
        assertThat(partner.post("/api/v1/session/capture", sessionRef(sessionId)).status()).isEqualTo(200);

        JsonNode payment = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("succeeded");
        assertThat(payment.path("amounts").path("gross").path("amount").asLong()).isEqualTo(10000);
        assertThat(payment.path("transaction_info").path("rrn").asText()).matches("\\d{12}");
        assertThat(WEBHOOKS.forSession(sessionId)).extracting(Received::type)
                .containsExactly("ready_to_confirm", "ready_to_capture", "payment_finished");
    }

    @Test
    void aHoldIsReleasedWhenThePartnerCancelsOrDoesNotCaptureInTime() {
        TestPartner partner = registeredPartner("release", "delayed");
        String cancelled = confirmed(partner, "v1", cardPayment("4242424242424242", "123"));
        String forgotten = confirmed(partner, "v1", cardPayment("5555555555554444", "123"));
        WEBHOOKS.await(cancelled, "ready_to_capture", WEBHOOK_WAIT);

        Answer cancel = partner.post("/api/v1/session/cancel", sessionRef(cancelled));
        assertThat(cancel.session().path("error").path("code").asText()).isEqualTo("session_cancelled_by_partner");
        assertThat(eventTypes(cancelled)).containsSubsequence("PaymentHoldReleasedEvent", "SessionCancelledEvent");

        JsonNode timedOut = WEBHOOKS.await(forgotten, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(timedOut.path("status").asText()).isEqualTo("cancelled");
        assertThat(timedOut.path("error").path("code").asText()).isEqualTo("capture_timeout");
        assertThat(eventTypes(forgotten)).containsSubsequence("PaymentAuthorizedEvent", "PaymentHoldReleasedEvent",
                "SessionCancelledEvent");
    }

    @Test
    void partialRefundsEndAcceptedWithAPaymentRefundedWebhookAndNeverExceedTheCapturedAmount() {
        TestPartner partner = registeredPartner("refunds");
        String sessionId = paid(partner, "4242424242424242");

        ObjectNode first = sessionRef(sessionId);
        first.putObject("amount_details").put("amount", 3000).put("currency", "rub");
        first.put("metadata", "damaged box");
        Answer refund = partner.post("/api/v1/session/refund", first);
        assertThat(refund.status()).as(refund.toString()).isEqualTo(200);
        assertThat(refund.session().path("status").asText()).as("a refund leaves the session accepted")
                .isEqualTo("accepted");
        JsonNode payment = refund.session().path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("succeeded");
        assertThat(payment.path("refunds").path(0).path("id").asText()).matches("rf_\\d+");
        assertThat(payment.path("refunds").path(0).path("status").asText()).isEqualTo("in_progress");
        assertThat(payment.path("refunds").path(0).path("metadata").asText()).isEqualTo("damaged box");

        Received refunded = WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT);
        assertThat(refunded.signatureValid()).isTrue();
        assertThat(refunded.session().path("status").asText()).isEqualTo("accepted");
        JsonNode done = refunded.session().path("acquiring_payments").path(0).path("refunds").path(0);
        assertThat(done.path("status").asText()).isEqualTo("accepted");
        assertThat(done.has("finished_at")).isTrue();
        assertThat(done.path("amount_details").path("amount").asLong()).isEqualTo(3000);

        ObjectNode tooMuch = sessionRef(sessionId);
        tooMuch.putObject("amount_details").put("amount", 7001).put("currency", "rub");
        assertThat(partner.post("/api/v1/session/refund", tooMuch).errorCode()).isEqualTo("refund_amount_too_large");
        Answer rest = partner.post("/api/v1/session/refund", sessionRef(sessionId));
        assertThat(rest.session().path("acquiring_payments").path(0).path("refunds").path(1).path("amount_details")
                .path("amount").asLong()).isEqualTo(7000);
        // a body of its own: the same signed refund body is not run twice (SignatureReplayEndToEndTest)
        assertThat(partner.post("/api/v1/session/refund", sessionRef(sessionId).put("metadata", "once more"))
                .errorCode()).isEqualTo("refund_amount_too_large");
    }

    @Test
    void twoRefundsRacingForTheSameMoneyNeverRefundMoreThanWasCaptured() throws Exception {
        TestPartner partner = registeredPartner("race");
        String sessionId = paid(partner, "4242424242424242");
        ObjectNode body = sessionRef(sessionId);
        body.putObject("amount_details").put("amount", 6000).put("currency", "rub");
        // two refunds of their own (an identical signed body would be refused as a replay before the race)
        ObjectNode other = body.deepCopy().put("metadata", "second parcel");

        var first = java.util.concurrent.CompletableFuture.supplyAsync(() -> partner.post("/api/v1/session/refund", body));
        var second = java.util.concurrent.CompletableFuture.supplyAsync(() -> partner.post("/api/v1/session/refund", other));
        List<Answer> answers = List.of(first.get(), second.get());

        assertThat(answers).filteredOn(answer -> answer.status() == 200).hasSize(1);
        assertThat(answers).filteredOn(answer -> answer.status() != 200).singleElement()
                .satisfies(answer -> assertThat(answer.errorCode()).isIn("refund_amount_too_large", "session_wrong_state"));
        assertThat(jdbc.queryForObject("select count(*) from domain_event_entry where aggregate_identifier = ?"
                + " and payload_type like '%RefundRequestedEvent'", Integer.class, sessionId)).isEqualTo(1);
    }

    @Test
    void aRefundTheBankRefusesEndsDeclinedAndCanBeRequestedAgain() {
        TestPartner partner = registeredPartner("refundno");
        String sessionId = paid(partner, "4000000000005126");
        partner.post("/api/v2/session/refund", sessionRef(sessionId));

        JsonNode refund = WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0).path("refunds").path(0);
        assertThat(refund.path("status").asText()).isEqualTo("declined");
        assertThat(refund.path("error").path("code").asText()).isEqualTo("declined_by_issuer_bank");
        // asked for again with a body of its own: the same signed refund body is not run twice
        assertThat(partner.post("/api/v2/session/refund", sessionRef(sessionId).put("metadata", "second try"))
                .status()).as("the declined amount may be refunded again").isEqualTo(200);
    }

    @Test
    void aWalletPaymentIsRefundedTheSameWay() {
        TestPartner partner = registeredPartner("walletrefund");
        ObjectNode body = payment(JsonNodeFactory.instance.objectNode().put("type", "wallet"));
        ((ObjectNode) body.get("payment_details")).putObject("wallet").put("type", "ewallet");
        String sessionId = confirmed(partner, "v1", body);
        payerAnswers(WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session().path("acquiring_payments")
                .path(0).path("customer_interaction").path("redirect").path("url").asText(), true);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);

        assertThat(partner.post("/api/v1/session/refund", sessionRef(sessionId)).status()).isEqualTo(200);
        assertThat(WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT).session().path("acquiring_payments")
                .path(0).path("refunds").path(0).path("status").asText()).isEqualTo("accepted");
    }

    /** init/payment, ready_to_confirm, confirm: the payment is with its rail. */
    private String confirmed(TestPartner partner, String version, ObjectNode body) {
        Answer init = partner.post("/api/" + version + "/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        Answer confirm = partner.post("/api/" + version + "/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        return sessionId;
    }

    private String paid(TestPartner partner, String card) {
        String sessionId = confirmed(partner, "v1", cardPayment(card, "123"));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        return sessionId;
    }

    private static ObjectNode payment(ObjectNode details) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("payment_details", details);
        body.putObject("amount_details").put("amount", 10000).put("currency", "rub");
        body.putObject("customer").put("reference", "customer-7");
        return body;
    }

    private List<String> eventTypes(String sessionId) {
        return jdbc.queryForList("select payload_type from domain_event_entry where aggregate_identifier = ?"
                        + " order by sequence_number", String.class, sessionId).stream()
                .map(type -> type.substring(type.lastIndexOf('.') + 1)).toList();
    }

    private String page(String url) {
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + URI.create(url).getPath()))
                .GET().build()).text();
    }
}
