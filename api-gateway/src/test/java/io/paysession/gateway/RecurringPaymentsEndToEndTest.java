package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Recurring payments over the signed API: tokens from first payments, MIT and CIT charges, disabling. */
class RecurringPaymentsEndToEndTest extends EndToEndTestBase {

    @Test
    void aCardTokenPaysMerchantAndCustomerInitiatedChargesUntilItIsDisabled() {
        TestPartner partner = registeredPartner("subscriptions");
        ObjectNode first = cardPayment("4000000000003220", "123");
        first.putObject("payment_options").put("recurrent", true);
        String firstSession = confirmed(partner, "v1", first);
        approve(firstSession, "acquiring_payments");
        JsonNode paid = WEBHOOKS.await(firstSession, "payment_finished", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0);
        JsonNode recurrent = paid.path("recurrent");
        String token = recurrent.path("token").asText();
        assertThat(token).matches("rt_[0-9a-f]{32}");
        assertThat(recurrent.path("is_active").asBoolean()).isTrue();
        assertThat(recurrent.path("type").asText()).isEqualTo("recurrent_token");
        assertThat(recurrent.path("created_at").asText()).endsWith("Z");
        assertThat(partner.post("/api/v1/session/status", sessionRef(firstSession)).session()
                .path("acquiring_payments").path(0).path("recurrent").path("token").asText()).isEqualTo(token);

        Answer status = awaitTokenStatus(partner, token);
        assertThat(status.body().path("recurrent").path("is_active").asBoolean()).isTrue();
        assertThat(status.body().path("recurrent").has("finished_at")).isFalse();
        Answer activeInfo = partner.post("/api/v1/token/info", tokenInfo(token));
        assertThat(activeInfo.body().path("info")).as(activeInfo.toString()).hasToString("{\"token\":\"" + token
                + "\",\"type\":\"recurrent_token\",\"created_at\":\"" + recurrent.path("created_at").asText()
                + "\",\"is_active\":true}");

        String mit = confirmed(partner, "v1", charge(token, "merchant"));
        Received mitFinished = WEBHOOKS.await(mit, "payment_finished", WEBHOOK_WAIT);
        assertThat(mitFinished.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("succeeded");
        assertThat(mitFinished.session().path("acquiring_payments").path(0).path("payment_details")).hasToString(
                "{\"type\":\"recurrent\",\"recurrent\":{\"token\":\"" + token + "\",\"initiator\":\"merchant\"}}");
        assertThat(WEBHOOKS.forSession(mit)).extracting(Received::type)
                .as("no customer is present for a merchant-initiated charge: no 3-D Secure")
                .containsExactly("ready_to_confirm", "payment_finished");

        String cit = confirmed(partner, "v2", charge(token, "client"));
        approve(cit, "payment_list");
        assertThat(WEBHOOKS.await(cit, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");

        Answer disabled = partner.post("/api/v1/recurrent/disable", "{\"recurrent\":{\"token\":\"" + token + "\"}}");
        assertThat(disabled.status()).as(disabled.toString()).isEqualTo(200);
        assertThat(disabled.body().path("recurrent").path("is_active").asBoolean()).isFalse();
        String finishedAt = disabled.body().path("recurrent").path("finished_at").asText();
        assertThat(finishedAt).endsWith("Z");
        await().atMost(WEBHOOK_WAIT).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            JsonNode granted = partner.post("/api/v1/session/status", sessionRef(firstSession)).session()
                    .path("acquiring_payments").path(0).path("recurrent");
            assertThat(granted.path("token").asText()).isEqualTo(token);
            assertThat(granted.path("is_active").asBoolean(true)).as("the granting payment shows the token disabled")
                    .isFalse();
            assertThat(granted.path("finished_at").asText()).isEqualTo(finishedAt);
        });
        JsonNode disabledInfo = partner.post("/api/v1/token/info", tokenInfo(token)).body().path("info");
        assertThat(disabledInfo.path("is_active").asBoolean(true)).isFalse();
        assertThat(disabledInfo.path("finished_at").asText()).isEqualTo(finishedAt);
        JsonNode grantedInV2 = partner.post("/api/v2/session/status", sessionRef(firstSession)).session()
                .path("payment_list").path(0).path("recurrent");
        assertThat(grantedInV2.path("is_active").asBoolean(true)).isFalse();
        assertThat(grantedInV2.path("finished_at").asText()).isEqualTo(finishedAt);

        // a charge of its own (the first merchant charge's signed body is not run twice)
        Answer refused = partner.post("/api/v1/session/init/payment",
                charge(token, "merchant").put("metadata", "after the token was disabled"));
        assertThat(refused.status()).as("accepted, then failed by the token").isEqualTo(200);
        JsonNode failed = WEBHOOKS.await(refused.session().path("id").asText(), "payment_finished", WEBHOOK_WAIT)
                .session();
        assertThat(failed.path("status").asText()).isEqualTo("cancelled");
        assertThat(failed.path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("recurrent_token_inactive");

        TestPartner other = registeredPartner("notmine");
        assertThat(other.post("/api/v1/session/init/payment", charge(token, "merchant")).errorDescription())
                .contains("payment_details.recurrent.token");
        assertThat(other.post("/api/v1/recurrent/status", "{\"recurrent\":{\"token\":\"" + token + "\"}}").errorCode())
                .isEqualTo("invalid_request");
    }

    @Test
    void aFailedPaymentGivesNoToken() {
        TestPartner partner = registeredPartner("notoken");
        ObjectNode body = cardPayment("4000000000000002", "123");
        body.putObject("payment_options").put("recurrent", "true");
        String sessionId = confirmed(partner, "v1", body);
        JsonNode payment = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("failed");
        assertThat(payment.has("recurrent")).isFalse();
    }

    @Test
    void aBankApplicationTokenChargesWithoutThePayerOrWithTheirApproval() {
        TestPartner partner = registeredPartner("bankrecurring");
        ObjectNode first = method("internet_banking");
        ((ObjectNode) first.get("payment_details")).putObject("internet_banking").put("type", "bank_app_pay");
        first.putObject("payment_options").put("recurrent", true).putObject("platform_details")
                .put("type", "mobile").put("os", "ios").put("browser", "safari");
        String firstSession = confirmed(partner, "v1", first);
        approve(firstSession, "acquiring_payments");
        String token = WEBHOOKS.await(firstSession, "payment_finished", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0).path("recurrent").path("token").asText();
        awaitTokenStatus(partner, token);

        String mit = confirmed(partner, "v1", charge(token, "merchant"));
        assertThat(WEBHOOKS.await(mit, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");

        ObjectNode citBody = charge(token, "client");
        citBody.putObject("payment_options").putObject("platform_details").put("type", "desktop")
                .put("os", "windows").put("browser", "chrome");
        String cit = confirmed(partner, "v1", citBody);
        approve(cit, "acquiring_payments");
        assertThat(WEBHOOKS.await(cit, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
    }

    @Test
    void anEWalletTokenTakesNoCustomerInitiatedCharge() {
        TestPartner partner = registeredPartner("walletrecurring");
        ObjectNode first = method("wallet");
        ((ObjectNode) first.get("payment_details")).putObject("wallet").put("type", "ewallet");
        first.putObject("payment_options").put("recurrent", true);
        String firstSession = confirmed(partner, "v1", first);
        approve(firstSession, "acquiring_payments");
        String token = WEBHOOKS.await(firstSession, "payment_finished", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0).path("recurrent").path("token").asText();
        awaitTokenStatus(partner, token);

        Answer cit = partner.post("/api/v1/session/init/payment", charge(token, "client"));
        assertThat(cit.errorCode()).isEqualTo("invalid_request");
        assertThat(cit.errorDescription()).contains("initiator");
        assertThat(partner.post("/api/v1/session/init/payment", charge(token, "merchant")).status()).isEqualTo(200);
    }

    @Test
    void aFirstInstantPaymentWithRecurrentGivesATokenAndAFailedOneDoesNot() {
        TestPartner partner = registeredPartner("fpsrecurring");
        String paid = startedFps(partner, "Monthly subscription");
        approve(paid, "payment_list");
        JsonNode accepted = WEBHOOKS.await(paid, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(accepted.path("status").asText()).isEqualTo("accepted");
        assertThat(accepted.path("payment_list").path(0).path("recurrent").path("token").asText()).startsWith("rt_");

        String declined = startedFps(partner, null);
        decline(declined, "payment_list");
        JsonNode cancelled = WEBHOOKS.await(declined, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
        assertThat(cancelled.path("payment_list").path(0).path("status").asText()).isEqualTo("failed");
        assertThat(cancelled.path("payment_list").path(0).has("recurrent")).isFalse();
    }

    @Test
    void aBindingChargesNothingAndGivesATokenAndTheAccountTokenWhenEnabled() {
        TestPartner partner = registeredPartner("binding");
        Answer enabled = admin("PUT", "/admin/v1/partners/" + partner.project(), "{\"bank_account_ru_token\":true}",
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(enabled.body().path("partner").path("bank_account_ru_token").asBoolean()).isTrue();

        String sessionId = confirmed(partner, "v1", binding(1));
        JsonNode interaction = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0).path("customer_interaction");
        assertThat(interaction.path("type").asText()).isEqualTo("inform");
        payerAnswers(interaction.path("inform").path("qr").path("content").asText(), true);

        JsonNode payment = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("succeeded");
        assertThat(payment.path("payment_details").path("type").asText()).isEqualTo("faster_payment_system_binding");
        assertThat(payment.path("recurrent").path("token").asText()).startsWith("rt_");
        assertThat(payment.path("transaction_info").path("bank_account_ru_token").asText()).matches("bat_[0-9a-f]{32}");
        assertThat(payment.has("amounts")).as("a binding charges nothing").isFalse();
        assertThat(partner.post("/api/v1/session/status", sessionRef(sessionId)).session().path("acquiring_payments")
                .path(0).path("transaction_info").path("bank_account_ru_token").asText())
                .isEqualTo(payment.path("transaction_info").path("bank_account_ru_token").asText());

        TestPartner without = registeredPartner("bindingplain");
        String plain = confirmed(without, "v1", binding(1));
        payerAnswers(WEBHOOKS.await(plain, "action_required", WEBHOOK_WAIT).session().path("acquiring_payments").path(0)
                .path("customer_interaction").path("inform").path("qr").path("content").asText(), true);
        assertThat(WEBHOOKS.await(plain, "payment_finished", WEBHOOK_WAIT).session().path("acquiring_payments").path(0)
                .path("transaction_info").has("bank_account_ru_token")).isFalse();

        Answer tooMuch = without.post("/api/v1/session/init/payment", binding(2));
        assertThat(tooMuch.errorDescription()).contains("amount_details.amount must be 1");
    }

    private String startedFps(TestPartner partner, String description) {
        String sessionId = partner.post("/api/v2/session/create", "{}").session().path("id").asText();
        ObjectNode start = sessionRef(sessionId);
        ObjectNode details = start.putObject("payment_details").put("type", "faster_payment_system");
        if (description != null) {
            details.putObject("faster_payment_system").put("description", description);
        }
        start.putObject("amount_details").put("amount", 49_900).put("currency", "rub");
        start.putObject("customer").put("reference", "subscriber");
        start.putObject("payment_options").put("recurrent", true);
        assertThat(partner.post("/api/v2/session/start/payment", start).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v2/session/confirm", sessionRef(sessionId));
        return sessionId;
    }

    private static ObjectNode binding(long amount) {
        ObjectNode body = method("faster_payment_system_binding");
        body.putObject("payment_options").put("recurrent", true);
        ((ObjectNode) body.get("amount_details")).put("amount", amount);
        return body;
    }

    private static ObjectNode charge(String token, String initiator) {
        ObjectNode body = method("recurrent");
        ((ObjectNode) body.get("payment_details")).putObject("recurrent").put("token", token).put("initiator", initiator);
        return body;
    }

    private static ObjectNode method(String type) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_details").put("type", type);
        body.putObject("amount_details").put("amount", 10000).put("currency", "rub");
        body.putObject("customer").put("reference", "subscriber-1");
        return body;
    }

    /** The token reaches the read side right after the grant; the partner may ask for it at once. */
    private static String tokenInfo(String token) {
        return "{\"type\":\"recurrent_token\",\"recurrent_token\":{\"token\":\"" + token + "\"}}";
    }

    private Answer awaitTokenStatus(TestPartner partner, String token) {
        String body = "{\"recurrent\":{\"token\":\"" + token + "\"}}";
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        Answer answer = partner.post("/api/v1/recurrent/status", body);
        while (answer.status() != 200 && System.currentTimeMillis() < deadline) {
            answer = partner.post("/api/v1/recurrent/status", body);
        }
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer;
    }

    private String confirmed(TestPartner partner, String version, ObjectNode body) {
        Answer init = partner.post("/api/" + version + "/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/" + version + "/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        return sessionId;
    }

    private void approve(String sessionId, String list) {
        payerAnswers(interactionUrl(sessionId, list), true);
    }

    private void decline(String sessionId, String list) {
        payerAnswers(interactionUrl(sessionId, list), false);
    }

    private static String interactionUrl(String sessionId, String list) {
        JsonNode interaction = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session().path(list).path(0)
                .path("customer_interaction");
        return interaction.has("redirect") ? interaction.path("redirect").path("url").asText()
                : interaction.path("inform").path("qr").path("content").asText();
    }
}
