package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sberpay/push {phone, session_id}}: the QR-code application notifies the payer of a payment waiting for
 * them. In the sandbox the notification shows on the payment's hosted page. Only a QR-application payment of the
 * partner's own, waiting for its payer, can be pushed.
 */
class PayerPushEndToEndTest extends EndToEndTestBase {

    @Test
    void aQrPaymentWaitingForItsPayerIsPushedInBothVersionsAndThePagesShowsIt() {
        TestPartner partner = registeredPartner("push-shop");
        for (String version : new String[]{"v1", "v2"}) {
            String payments = version.equals("v1") ? "acquiring_payments" : "payment_list";
            String sessionId = qrPayment(partner, version);
            assertThat(push(partner, version, "79261234567", sessionId).errorCode())
                    .as("before confirmation nobody waits in the application").isEqualTo("session_wrong_state");
            partner.post("/api/" + version + "/session/confirm", sessionRef(sessionId));
            JsonNode payment = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session().path(payments).path(0);
            String page = payment.path("customer_interaction").path("redirect").path("url").asText();
            assertThat(pageText(page)).doesNotContain("notification");

            Answer pushed = push(partner, version, "+79161112233", sessionId);
            assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
            assertThat(pushed.text()).isEqualTo("{\"status\":\"ok\"}");
            assertThat(push(partner, version, "79260000000", sessionId).status()).as("a second push").isEqualTo(200);
            String shown = pageText(page);
            assertThat(shown).contains("sent to the phone ending in 2233").contains("sent to the phone ending in 0000");
            assertThat(shown).doesNotContain("79161112233");

            payerAnswers(page, true);
            WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
            assertThat(push(partner, version, "79261234567", sessionId).errorCode()).as("paid: nobody waits")
                    .isEqualTo("session_wrong_state");
        }
    }

    @Test
    void aPushNamesWhatIsWrong() {
        TestPartner partner = registeredPartner("push-errors");
        String qr = qrPayment(partner, "v1");

        assertRefused(partner.post("/api/v1/sberpay/push", "{\"session_id\":\"" + qr + "\"}"), 400, "invalid_request",
                "phone is required");
        assertRefused(push(partner, "v1", "7926", qr), 400, "invalid_request", "phone must be 10 to 15 digits");
        assertRefused(partner.post("/api/v1/sberpay/push", "{\"phone\":\"79261234567\"}"), 400, "invalid_request",
                "session_id is required");
        assertRefused(push(partner, "v1", "79261234567", "ps_999999999"), 404, "session_not_found", "not found");
        assertRefused(push(registeredPartner("push-stranger"), "v1", "79261234567", qr), 403, "authorization_error",
                "another project");
        String card = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123")).session()
                .path("id").asText();
        assertRefused(push(partner, "v1", "79261234567", card), 400, "invalid_request", "qr_app_pay");
    }

    private String qrPayment(TestPartner partner, String version) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_details").put("type", "internet_banking").putObject("internet_banking")
                .put("type", "qr_app_pay").putObject("qr_app_pay").put("phone", "79261234567");
        body.putObject("amount_details").put("amount", 5000).put("currency", "rub");
        body.putObject("customer").put("reference", "push-customer");
        body.put("metadata", "order " + java.util.UUID.randomUUID());
        Answer init = partner.post("/api/" + version + "/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        return sessionId;
    }

    private static Answer push(TestPartner partner, String version, String phone, String sessionId) {
        return partner.post("/api/" + version + "/sberpay/push",
                "{\"phone\":\"" + phone + "\",\"session_id\":\"" + sessionId + "\"}");
    }

    private String pageText(String interactionUrl) {
        Answer page = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl()
                + URI.create(interactionUrl).getPath())).GET().build());
        assertThat(page.status()).isEqualTo(200);
        return page.text();
    }

    private static void assertRefused(Answer answer, int status, String code, String description) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.errorCode()).isEqualTo(code);
        assertThat(answer.errorDescription()).contains(description);
    }
}
