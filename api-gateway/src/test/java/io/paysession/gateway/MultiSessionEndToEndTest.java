package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Multi-sessions over the signed API ({@code session/multi/init}, as the partner SDK sends it): several payments and
 * payouts in one session, one {@code ready_to_confirm} once all wait for it, one confirmation and one
 * {@code payment_finished} once all ended, the session's status following all of them; a refusal at a pre-check
 * cancelling the others; idempotency keys.
 */
class MultiSessionEndToEndTest extends EndToEndTestBase {

    private static final AtomicInteger ORDERS = new AtomicInteger();

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void twoPaymentsAndAPayoutAreConfirmedTogetherAndTheSessionIsAcceptedWhenAllSucceeded() {
        TestPartner partner = registeredPartner("multi");
        ObjectNode body = multi(List.of(payment("4242424242424242", 10_000), payment("5555555555554444", 7_000)),
                List.of(payout(5_000)));
        Answer init = partner.post("/api/v2/session/multi/init", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        JsonNode session = init.session();
        String sessionId = session.path("id").asText();
        assertThat(session.path("status").asText()).isEqualTo("in_progress");
        assertThat(session.path("payment_list")).hasSize(2);
        assertThat(session.path("payout_list")).hasSize(1);
        assertThat(init.text()).doesNotContain("4242424242424242").doesNotContain("5555555555554444");

        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(ready.signatureValid()).isTrue();
        assertThat(ready.session().path("next_action").asText()).isEqualTo("confirm");
        assertThat(ready.session().path("payment_list")).allSatisfy(payment ->
                assertThat(payment.path("status").asText()).isEqualTo("pending"));
        assertThat(ready.session().path("payout_list").path(0).path("status").asText()).isEqualTo("pending");
        assertThat(securityCodesKept(sessionId)).as("both cards' codes wait for their authorizations").isEqualTo(2);

        Answer confirmed = partner.post("/api/v2/session/confirm", sessionRef(sessionId));
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("accepted");
        assertThat(finished.path("payment_list")).allSatisfy(payment ->
                assertThat(payment.path("status").asText()).isEqualTo("succeeded"));
        assertThat(finished.path("payout_list").path(0).path("status").asText()).isEqualTo("succeeded");
        assertThat(WEBHOOKS.forSession(sessionId)).extracting(Received::type).as("one of each for the session")
                .containsExactly("ready_to_confirm", "payment_finished");
        assertThat(securityCodesKept(sessionId)).as("no code outlives its authorization").isZero();
        assertThat(partner.post("/api/v2/session/refund", sessionRef(sessionId)).errorCode())
                .isEqualTo("session_wrong_state");
    }

    private int securityCodesKept(String sessionId) {
        return jdbc.queryForObject("select count(*) from card_vault where session_id = ? and cvc_ciphertext is not null",
                Integer.class, sessionId);
    }

    @Test
    void aPaymentDeclinedAfterTheConfirmationLeavesTheOthersPaidAndTheSessionCancelledNamingIt() {
        TestPartner partner = registeredPartner("multi-mixed");
        ObjectNode body = multi(List.of(payment("4242424242424242", 10_000), payment("4000000000000002", 3_000)),
                List.of());
        String sessionId = partner.post("/api/v2/session/multi/init", body).session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v2/session/confirm", sessionRef(sessionId));

        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("cancelled");
        assertThat(finished.path("error").path("code").asText()).isEqualTo("session_cancelled");
        String declined = finished.path("payment_list").path(1).path("id").asText();
        assertThat(finished.path("error").path("description").asText()).contains(declined + " (declined_by_issuer_bank)");
        assertThat(finished.path("payment_list").path(0).path("status").asText()).isEqualTo("succeeded");
        assertThat(finished.path("payment_list").path(1).path("status").asText()).isEqualTo("failed");
    }

    @Test
    void aRefusalAtAPreCheckCancelsTheWholeSessionBeforeAnythingIsConfirmed() {
        TestPartner partner = registeredPartner("multi-refused");
        ObjectNode expired = payment("4242424242424242", 10_000);
        ((ObjectNode) expired.at("/payment_details/card/bank_card")).put("expiration_year", "20");
        String sessionId = partner.post("/api/v1/session/multi/init", multi(List.of(expired), List.of(payout(5_000))))
                .session().path("id").asText();

        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("cancelled");
        assertThat(finished.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("bank_card_expired");
        assertThat(finished.path("payments").path(0).path("status").asText()).as("the payout is cancelled with it")
                .isEqualTo("failed");
        assertThat(WEBHOOKS.forSession(sessionId)).extracting(Received::type).containsExactly("payment_finished");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).errorCode())
                .isEqualTo("session_wrong_state");
    }

    @Test
    void thePartnerCancelsTheWholeSessionAndAKeyGivesTheFirstAnswerAgain() {
        TestPartner partner = registeredPartner("multi-cancel");
        String body = multi(List.of(payment("4242424242424242", 10_000)), List.of(payout(1_000))).toString();
        Answer first = partner.post("/api/v2/session/multi/init", body, "multi-key-1");
        Answer again = partner.post("/api/v2/session/multi/init", body, "multi-key-1");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.headers().firstValue("X-PARTNER-IDEMPOTENT-REPLAY")).contains("true");
        assertThat(again.text()).isEqualTo(first.text());
        String sessionId = first.session().path("id").asText();

        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        Answer cancelled = partner.post("/api/v2/session/cancel", sessionRef(sessionId));
        assertThat(cancelled.session().path("status").asText()).isEqualTo("cancelled");
        assertThat(cancelled.session().path("error").path("code").asText()).isEqualTo("session_cancelled_by_partner");
        assertThat(cancelled.session().path("payment_list").path(0).path("status").asText()).isEqualTo("failed");
        assertThat(cancelled.session().path("payout_list").path(0).path("status").asText()).isEqualTo("failed");
    }

    @Test
    void aRefusalNamesTheElementItIsAbout() {
        TestPartner partner = registeredPartner("multi-shape");
        assertThat(partner.post("/api/v2/session/multi/init", "{\"payment_list\":[]}").errorDescription())
                .contains("payout_list is required");
        assertThat(partner.post("/api/v2/session/multi/init", "{\"payment_list\":[],\"payout_list\":[]}")
                .errorDescription()).contains("1 to 10 payments and payouts");
        ObjectNode missing = payment("4242424242424242", 100);
        missing.remove("amount_details");
        Answer refused = partner.post("/api/v2/session/multi/init", multi(List.of(payment("4242424242424242", 100),
                missing), List.of()));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.errorCode()).isEqualTo("invalid_request");
        assertThat(refused.errorDescription()).isEqualTo("payment_list[1]: amount_details is required");
        Answer luhn = partner.post("/api/v2/session/multi/init", multi(List.of(payment("4242424242424241", 100)),
                List.of()));
        assertThat(luhn.errorCode()).isEqualTo("card_number_does_not_exist");
        assertThat(luhn.text()).doesNotContain("4242424242424241");
        assertThat(partner.post("/api/v2/session/multi/init", "{\"payment_list\":[1],\"payout_list\":[]}")
                .errorDescription()).contains("payment_list[0] must be an object");
    }

    private static ObjectNode multi(List<ObjectNode> payments, List<ObjectNode> payouts) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ArrayNode paymentList = body.putArray("payment_list");
        payments.forEach(paymentList::add);
        ArrayNode payoutList = body.putArray("payout_list");
        payouts.forEach(payoutList::add);
        return body;
    }

    private static ObjectNode payment(String card, long amount) {
        ObjectNode payment = cardPayment(card, "123");
        ((ObjectNode) payment.get("amount_details")).put("amount", amount);
        payment.put("metadata", "multi order " + ORDERS.incrementAndGet());
        return payment;
    }

    private static ObjectNode payout(long amount) {
        ObjectNode payout = JsonNodeFactory.instance.objectNode();
        payout.putObject("payout_details").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "2200000000000004");
        payout.putObject("amount_details").put("amount", amount).put("currency", "rub");
        payout.putObject("participant_details").putObject("recipient").put("full_name", "Ivan Ivanov");
        return payout;
    }
}
