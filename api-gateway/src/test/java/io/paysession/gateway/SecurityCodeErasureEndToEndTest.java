package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PCI DSS 3.3.1.2: a security code is kept (encrypted, in {@code card_vault}) only while its payment may still be
 * authorized with it. Every end of a card payment, read in the vault table: the code is there while the payment
 * waits for its authorization (the sandbox acquirer declines a card authorized without one), and gone once the
 * acquirer answered, the payment failed or the session was cancelled; a request the session refuses stores no card
 * at all; a code that no event ends (a draft never started) is erased by the sweeper once it is older than the
 * longest confirmation window.
 */
class SecurityCodeErasureEndToEndTest extends EndToEndTestBase {

    /** The tests' confirmation window is 60 s (TestServiceProperties); its deadline fires a little after. */
    private static final Duration CONFIRM_TIMEOUT_WAIT = Duration.ofSeconds(90);

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void everyEndOfACardPaymentErasesItsSecurityCode() {
        TestPartner partner = registeredPartner("cvc-ends");
        TestPartner holding = registeredPartner("cvc-hold", "delayed");
        // started first: its confirmation window runs out while the other paths are walked
        String timedOut = readyToConfirm(partner, cardPayment("4242424242424242", "111"));
        assertThat(securityCodesKept(timedOut)).as("waiting for confirmation, the code is kept").isEqualTo(1);

        String paid = readyToConfirm(partner, cardPayment("4242424242424242", "222"));
        assertThat(securityCodesKept(paid)).isEqualTo(1);
        confirm(partner, paid);
        assertPayment(WEBHOOKS.await(paid, "payment_finished", WEBHOOK_WAIT), "succeeded", null);
        assertErased(paid);

        String held = readyToConfirm(holding, cardPayment("5555555555554444", "333"));
        confirm(holding, held);
        assertPayment(WEBHOOKS.await(held, "ready_to_capture", WEBHOOK_WAIT), "pending", null);
        assertErased(held);

        String declined = readyToConfirm(partner, cardPayment("4000000000000002", "444"));
        confirm(partner, declined);
        assertPayment(WEBHOOKS.await(declined, "payment_finished", WEBHOOK_WAIT), "failed", "declined_by_issuer_bank");
        assertErased(declined);

        String cancelled = readyToConfirm(partner, cardPayment("4242424242424242", "555"));
        assertThat(securityCodesKept(cancelled)).isEqualTo(1);
        assertThat(partner.post("/api/v1/session/cancel", sessionRef(cancelled)).status()).isEqualTo(200);
        assertPayment(WEBHOOKS.await(cancelled, "payment_finished", WEBHOOK_WAIT), "failed",
                "session_cancelled_by_partner");
        assertErased(cancelled);

        ObjectNode expiredCard = cardPayment("4242424242424242", "666");
        ((ObjectNode) expiredCard.at("/payment_details/card/bank_card")).put("expiration_year", "20");
        String expired = started(partner, expiredCard);
        assertPayment(WEBHOOKS.await(expired, "payment_finished", WEBHOOK_WAIT), "failed", "bank_card_expired");
        assertErased(expired);

        String challenged = readyToConfirm(partner, cardPayment("4000000000003220", "777"));
        confirm(partner, challenged);
        Received action = WEBHOOKS.await(challenged, "action_required", WEBHOOK_WAIT);
        assertErased(challenged);
        String page = action.session().at("/acquiring_payments/0/customer_interaction/redirect/url").asText();
        assertThat(payerAnswers(page, true).status()).isEqualTo(200);
        assertPayment(WEBHOOKS.await(challenged, "payment_finished", WEBHOOK_WAIT), "succeeded", null);

        String unanswered = readyToConfirm(partner, cardPayment("4000000000000119", "888"));
        confirm(partner, unanswered);
        assertPayment(WEBHOOKS.await(unanswered, "payment_finished", WEBHOOK_WAIT), "succeeded", null);
        assertErased(unanswered);

        assertPayment(WEBHOOKS.await(timedOut, "payment_finished", CONFIRM_TIMEOUT_WAIT), "failed", "confirm_timeout");
        assertErased(timedOut);
    }

    @Test
    void aRequestTheSessionRefusesStoresNoCard() {
        TestPartner owner = registeredPartner("cvc-owner");
        TestPartner intruder = registeredPartner("cvc-intruder");
        String created = owner.post("/api/v1/session/create", "{}").session().path("id").asText();

        ObjectNode start = cardPayment("4242424242424242", "123");
        start.put("session_id", created);
        Answer foreignStart = intruder.post("/api/v1/session/start/payment", start);
        assertThat(foreignStart.status()).as(foreignStart.toString()).isEqualTo(403);
        ObjectNode payout = payoutByCard(created);
        Answer foreignPayout = intruder.post("/api/v1/session/start/payout", payout);
        assertThat(foreignPayout.status()).as(foreignPayout.toString()).isEqualTo(403);
        assertThat(cardsOf(intruder)).as("another project's session stores none of the intruder's cards").isZero();

        String inProgress = started(owner, cardPayment("4242424242424242", "123"));
        ObjectNode secondStart = cardPayment("5555555555554444", "456");
        secondStart.put("session_id", inProgress);
        Answer wrongState = owner.post("/api/v1/session/start/payment", secondStart);
        assertThat(wrongState.errorCode()).as(wrongState.toString()).isEqualTo("session_wrong_state");
        assertThat(jdbc.queryForList("select last4 from card_vault where project = ?", String.class, owner.project()))
                .as("only the card of the accepted request is stored").containsExactly("4242");
    }

    @Test
    void aDraftsCardIsErasedWithItsSessionOrByTheSweeperOnceOlderThanTheConfirmationWindow() throws Exception {
        TestPartner partner = registeredPartner("cvc-drafts");
        String replaced = partner.post("/api/v1/session/create", cardPayment("4242424242424242", "123"))
                .session().path("id").asText();
        ObjectNode start = cardPayment("5555555555554444", "456");
        start.put("session_id", replaced);
        assertThat(partner.post("/api/v1/session/start/payment", start).status()).isEqualTo(200);
        assertThat(securityCodesKept(replaced)).as("the draft's card and the card given at start").isEqualTo(2);
        WEBHOOKS.await(replaced, "ready_to_confirm", WEBHOOK_WAIT);
        confirm(partner, replaced);
        assertPayment(WEBHOOKS.await(replaced, "payment_finished", WEBHOOK_WAIT), "succeeded", null);
        assertThat(securityCodesKept(replaced)).as("the replaced draft card's code goes with the session's").isZero();

        String forgotten = partner.post("/api/v1/session/create", cardPayment("4242424242424242", "789"))
                .session().path("id").asText();
        String recent = partner.post("/api/v1/session/create", cardPayment("4242424242424242", "987"))
                .session().path("id").asText();
        // stored a day ago, far beyond the longest confirmation window (60 s here) and the grace (15 min)
        jdbc.update("update card_vault set created_at = now() - interval '1 day' where session_id = ?", forgotten);
        awaitErased(forgotten, Duration.ofSeconds(20));
        assertThat(securityCodesKept(recent)).as("a code younger than the window stays").isEqualTo(1);

        // the draft is started after its code was swept: the acquirer gets no code and declines
        assertThat(partner.post("/api/v1/session/start/payment", sessionRef(forgotten)).status()).isEqualTo(200);
        WEBHOOKS.await(forgotten, "ready_to_confirm", WEBHOOK_WAIT);
        confirm(partner, forgotten);
        assertPayment(WEBHOOKS.await(forgotten, "payment_finished", WEBHOOK_WAIT), "failed", "declined_by_issuer_bank");
    }

    private String started(TestPartner partner, ObjectNode body) {
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        assertThat(cardsOfSession(sessionId)).as("the card is stored for its session").isEqualTo(1);
        return sessionId;
    }

    private String readyToConfirm(TestPartner partner, ObjectNode body) {
        String sessionId = started(partner, body);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        return sessionId;
    }

    private static void confirm(TestPartner partner, String sessionId) {
        Answer confirm = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
    }

    private static void assertPayment(Received webhook, String status, String errorCode) {
        JsonNode payment = webhook.session().path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).as(webhook.type()).isEqualTo(status);
        if (errorCode != null) {
            assertThat(payment.path("error").path("code").asText()).isEqualTo(errorCode);
        }
    }

    private void assertErased(String sessionId) {
        assertThat(cardsOfSession(sessionId)).isEqualTo(1);
        assertThat(securityCodesKept(sessionId)).as("security code of " + sessionId).isZero();
        assertThat(jdbc.queryForObject("select count(*) from card_vault where session_id = ? and cvc_erased_at is null",
                Integer.class, sessionId)).as("the erasure is recorded").isZero();
    }

    private void awaitErased(String sessionId, Duration timeout) throws InterruptedException {
        Instant until = Instant.now().plus(timeout);
        while (securityCodesKept(sessionId) > 0 && Instant.now().isBefore(until)) {
            Thread.sleep(100);
        }
        assertThat(securityCodesKept(sessionId)).as("swept security code of " + sessionId).isZero();
    }

    private int securityCodesKept(String sessionId) {
        return jdbc.queryForObject("select count(*) from card_vault where session_id = ? and cvc_ciphertext is not null",
                Integer.class, sessionId);
    }

    private int cardsOfSession(String sessionId) {
        return jdbc.queryForObject("select count(*) from card_vault where session_id = ?", Integer.class, sessionId);
    }

    private int cardsOf(TestPartner partner) {
        return jdbc.queryForObject("select count(*) from card_vault where project = ?", Integer.class, partner.project());
    }

    private static ObjectNode payoutByCard(String sessionId) {
        ObjectNode body = sessionRef(sessionId);
        body.putObject("payment_method").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242");
        body.putObject("amount_details").put("amount", 1000).put("currency", "rub");
        body.putObject("participant_details").putObject("recipient").put("full_name", "John Doe");
        return body;
    }
}
