package io.paysession.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.Race;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The signature covers the body alone (the spec), so whoever captures a signed body holds a valid request. The body
 * of a payment, a payout or a refund runs once: again only under the idempotency key it was first sent with (the key
 * then answers), never without one or under another key. The methods whose bodies repeat by design (an empty
 * {@code session/create}, the {@code {"session_id"}} of status, confirm, cancel and capture) keep working as the spec
 * has partners send them.
 */
class SignatureReplayEndToEndTest extends EndToEndTestBase {

    private static final String INIT = "/api/v1/session/init/payment";

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aCapturedPaymentWithItsCardIsNotRunAgainUnderAnotherKeyOrWithoutOne() {
        TestPartner partner = registeredPartner("replay-payment");
        String body = cardPayment("4242424242424242", "123").toString();
        Answer first = partner.post(INIT, body, "order-1");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);

        Answer underAnotherKey = partner.post(INIT, body, "attacker-key-1");
        Answer withoutKey = partner.post(INIT, body);
        Answer onVersion2 = partner.post("/api/v2/session/init/payment", body, "attacker-key-2");

        for (Answer replayed : new Answer[]{underAnotherKey, withoutKey, onVersion2}) {
            assertThat(replayed.status()).as(replayed.toString()).isEqualTo(401);
            assertThat(replayed.errorCode()).isEqualTo("authentication_error");
            assertThat(replayed.errorDescription()).contains("already sent to this method");
        }
        assertThat(Race.sessionsCreatedWithKey(jdbc, partner.project(), "attacker-key-1")).isZero();
        assertThat(Race.sessionsCreatedWithKey(jdbc, partner.project(), "attacker-key-2")).isZero();
        assertThat(sessionsOf(partner)).as("only the partner's own payment").isEqualTo(1);

        Answer retry = partner.post(INIT, body, "order-1");
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.headers().firstValue("X-PARTNER-IDEMPOTENT-REPLAY")).contains("true");
        assertThat(retry.text()).isEqualTo(first.text());
    }

    @Test
    void aCapturedRefundRefundsOnce() {
        TestPartner partner = registeredPartner("replay-refund");
        String sessionId = paid(partner);
        ObjectNode refund = sessionRef(sessionId);
        refund.putObject("amount_details").put("amount", 1000).put("currency", "rub");

        Answer first = partner.post("/api/v1/session/refund", refund);
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT);
        Answer again = partner.post("/api/v1/session/refund", refund);
        Answer againWithKey = partner.post("/api/v1/session/refund", refund.toString(), "refund-key-1");

        assertThat(again.status()).as(again.toString()).isEqualTo(401);
        assertThat(againWithKey.status()).as(againWithKey.toString()).isEqualTo(401);
        Answer status = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(status.session().path("acquiring_payments").path(0).path("refunds")).as(status.toString())
                .hasSize(1);

        ObjectNode anotherRefund = refund.deepCopy().put("metadata", "second parcel");
        assertThat(partner.post("/api/v1/session/refund", anotherRefund).status())
                .as("a refund of its own body is a new request").isEqualTo(200);
    }

    @Test
    void aCapturedPayoutIsNotRunAgain() {
        TestPartner partner = registeredPartner("replay-payout");
        ObjectNode payout = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        payout.putObject("payment_method").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242");
        payout.putObject("amount_details").put("amount", 150_000).put("currency", "rub");
        payout.putObject("participant_details").putObject("recipient").put("full_name", "Anna Petrova");
        Answer first = partner.post("/api/v1/session/init/payout", payout.toString(), "payout-1");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);

        Answer underAnotherKey = partner.post("/api/v1/session/init/payout", payout.toString(), "payout-2");
        Answer withoutKey = partner.post("/api/v2/session/init/payout", payout.toString());

        assertThat(underAnotherKey.status()).as(underAnotherKey.toString()).isEqualTo(401);
        assertThat(withoutKey.status()).as(withoutKey.toString()).isEqualTo(401);
        assertThat(sessionsOf(partner)).isEqualTo(1);
    }

    @Test
    void bodiesThatRepeatByDesignAreNotRefused() {
        TestPartner partner = registeredPartner("replay-create");
        for (int i = 0; i < 3; i++) {
            Answer created = partner.post("/api/v1/session/create", "{}");
            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            assertThat(publicToken(partner)).as("the widget's token, asked for with the same body each time").isNotBlank();
        }
        assertThat(sessionsOf(partner)).isEqualTo(3);
    }

    @Test
    void theSessionStepsTakeTheSameBodyOneAfterTheOtherAsTheSpecSendsThem() {
        TestPartner partner = registeredPartner("replay-steps", "delayed");
        Answer init = partner.post(INIT, cardPayment("4242424242424242", "123"));
        String sessionId = init.session().path("id").asText();
        ObjectNode step = sessionRef(sessionId);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

        assertThat(partner.post("/api/v1/session/status", step).status()).isEqualTo(200);
        assertThat(partner.post("/api/v1/session/confirm", step).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/status", step).status()).isEqualTo(200);
        Answer capture = partner.post("/api/v1/session/capture", step);
        assertThat(capture.status()).as(capture.toString()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        Answer refund = partner.post("/api/v1/session/refund", step);
        assertThat(refund.status()).as("a full refund, the same body once more: " + refund).isEqualTo(200);
        assertThat(partner.post("/api/v1/session/status", step).status()).as("reads are never refused").isEqualTo(200);

        Answer captureAgain = partner.post("/api/v1/session/capture", step);
        assertThat(captureAgain.errorCode()).as("the session's state refuses a step twice: " + captureAgain)
                .isEqualTo("session_wrong_state");
        Answer refundAgain = partner.post("/api/v1/session/refund", step);
        assertThat(refundAgain.status()).as("a refund body runs once: " + refundAgain).isEqualTo(401);
    }

    @Test
    void aRefusedFirstUseDoesNotSpendTheBody() {
        TestPartner partner = registeredPartner("replay-refused");
        ObjectNode body = cardPayment("4242424242424242", "123");
        assertThat(partner.post(INIT, body.toString(), "used-key").status()).isEqualTo(200);
        ObjectNode other = body.deepCopy().put("metadata", "order 43");

        Answer mismatch = partner.post(INIT, other.toString(), "used-key");
        assertThat(mismatch.errorCode()).isEqualTo("idempotency_key_params_mismatch");
        Answer corrected = partner.post(INIT, other.toString(), "fresh-key");
        assertThat(corrected.status()).as("refused under the wrong key, the body was not used: " + corrected)
                .isEqualTo(200);
    }

    private String paid(TestPartner partner) {
        Answer init = partner.post(INIT, cardPayment("4242424242424242", "123"));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        await().atMost(Duration.ofSeconds(10)).until(() -> "accepted".equals(
                partner.post("/api/v1/session/status", sessionRef(sessionId)).session().path("status").asText()));
        return sessionId;
    }

    private long sessionsOf(TestPartner partner) {
        return jdbc.queryForObject("""
                select count(*) from domain_event_entry
                where payload_type like '%.SessionCreatedEvent'
                  and convert_from(meta_data, 'UTF8')::jsonb ->> 'project' = ?""", Long.class, partner.project());
    }
}
