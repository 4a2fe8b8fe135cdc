package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A payment made for a submerchant ({@code X-PARTNER-SUBMERCHANT}) carries {@code metadata} with {@code merchant}
 * and {@code submerchant}, on every call that starts one ({@code session/create}, {@code init/payment},
 * {@code start/payment}) and in both API versions; the metadata comes back on the payment and in its webhooks.
 * (Payouts: {@code PayoutsEndToEndTest}.)
 */
class SubmerchantPaymentsEndToEndTest extends EndToEndTestBase {

    private static final String SITE = "https://seller.example/shop";
    private static final java.util.concurrent.atomic.AtomicInteger REQUESTS = new java.util.concurrent.atomic.AtomicInteger();

    @Test
    void initPaymentForASubmerchantIsRefusedWithoutTheMetadataAndCarriesItWhenGiven() {
        TestPartner partner = registeredPartner("market-pay");
        for (String version : new String[]{"v1", "v2"}) {
            String payments = version.equals("v1") ? "acquiring_payments" : "payment_list";
            ObjectNode body = cardPayment("4242424242424242", "123");
            assertRefused(forSubmerchant(partner, "/api/" + version + "/session/init/payment", body));
            body.putObject("metadata").put("merchant", "market");
            assertRefused(forSubmerchant(partner, "/api/" + version + "/session/init/payment", body));

            ((ObjectNode) body.get("metadata")).put("submerchant", SITE);
            Answer accepted = forSubmerchant(partner, "/api/" + version + "/session/init/payment", body);
            assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
            String sessionId = accepted.session().path("id").asText();
            assertThat(accepted.session().path(payments).path(0).path("metadata").path("submerchant").asText())
                    .isEqualTo(SITE);
            Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
            assertThat(ready.signatureValid()).isTrue();
            JsonNode metadata = ready.session().path(payments).path(0).path("metadata");
            assertThat(metadata.path("merchant").asText()).isEqualTo("market");
            assertThat(metadata.path("submerchant").asText()).isEqualTo(SITE);
        }
    }

    @Test
    void aSessionCreatedAndStartedForASubmerchantNeedsTheMetadataAtEachStep() {
        TestPartner partner = registeredPartner("market-start");
        assertRefused(forSubmerchant(partner, "/api/v1/session/create", JSON.objectNode()));
        ObjectNode create = JSON.objectNode();
        create.putObject("metadata").put("merchant", "market").put("submerchant", SITE);
        Answer created = forSubmerchant(partner, "/api/v1/session/create", create);
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        String sessionId = created.session().path("id").asText();

        ObjectNode start = cardPayment("4242424242424242", "123");
        start.put("session_id", sessionId);
        start.remove("metadata");
        assertRefused(forSubmerchant(partner, "/api/v1/session/start/payment", start));
        start.putObject("metadata").put("merchant", "market").put("submerchant", SITE);
        Answer started = forSubmerchant(partner, "/api/v1/session/start/payment", start);
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        assertThat(started.session().path("acquiring_payments").path(0).path("metadata").path("submerchant").asText())
                .isEqualTo(SITE);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("accepted");
        assertThat(finished.path("acquiring_payments").path(0).path("metadata").path("merchant").asText())
                .isEqualTo("market");
    }

    @Test
    void withoutTheHeaderNoMetadataIsAsked() {
        TestPartner partner = registeredPartner("market-none");
        ObjectNode body = cardPayment("4242424242424242", "123");
        body.remove("metadata");
        assertThat(partner.post("/api/v1/session/init/payment", body).status()).isEqualTo(200);
    }

    private static final com.fasterxml.jackson.databind.node.JsonNodeFactory JSON =
            com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;

    private static void assertRefused(Answer answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("invalid_request");
        assertThat(answer.errorDescription()).contains("merchant and submerchant");
    }

    /** Each request a body of its own (a signed body is accepted once per method): a fresh customer reference. */
    private static Answer forSubmerchant(TestPartner partner, String path, ObjectNode body) {
        body.putObject("customer").put("reference", "buyer-" + REQUESTS.incrementAndGet());
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        return partner.send(path, bytes, Map.of("X-PARTNER-PROJECT", partner.project(), "X-PARTNER-SIGN",
                partner.sign(bytes), "X-PARTNER-SUBMERCHANT", "sm-7"));
    }
}
