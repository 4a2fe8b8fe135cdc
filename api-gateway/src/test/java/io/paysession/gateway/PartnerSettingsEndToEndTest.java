package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.gateway.partners.PartnerRegistration;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.spec.RSAPublicKeySpec;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partner settings are validated field by field at the admin API, and fees are bounded so that
 * {@code fixed + amount * percent_bp / 10000} holds for every accepted amount; a fee larger than its payment, or a
 * fee schedule stored before these bounds, never stops a payment from being recorded.
 */
class PartnerSettingsEndToEndTest extends EndToEndTestBase {

    private static final long MAX_AMOUNT = 1_000_000_000_000_000L;

    @Autowired
    private PartnerRegistration registration;

    @Test
    void everyFieldOutsideItsBoundsIsRefusedNamingTheField() throws Exception {
        TestPartner partner = new TestPartner("settings-" + System.nanoTime());
        String[][] cases = {
                {"\"fees\":{\"percent_bp\":250,\"fixed\":9223372036854775806}", "fees.fixed"},
                {"\"fees\":{\"fixed\":" + (MAX_AMOUNT + 1) + "}", "fees.fixed"},
                {"\"fees\":{\"fixed\":-1}", "fees.fixed"},
                {"\"fees\":{\"fixed\":1.5}", "fees.fixed"},
                {"\"fees\":{\"fixed\":\"30\"}", "fees.fixed"},
                {"\"fees\":{\"fixed\":99999999999999999999999}", "fees.fixed"},
                {"\"fees\":{\"percent_bp\":10001}", "fees.percent_bp"},
                {"\"fees\":{\"percent_bp\":-1}", "fees.percent_bp"},
                {"\"fees\":{\"percent_bp\":null}", "fees.percent_bp"},
                {"\"fees\":7", "fees"},
                {"\"capture_mode\":\"sometimes\"", "capture_mode"},
                {"\"bank_account_ru_token\":\"yes\"", "bank_account_ru_token"},
                {"\"webhook_url\":\"https://partner.example/" + "h".repeat(2100) + "\"", "webhook_url"},
                {"\"webhook_url\":\"ftp://partner.example/\"", "webhook_url"},
                {"\"public_key\":" + quoted(publicKeyWithBits(8200)), "public_key"}};
        ObjectNode valid = JsonNodeFactory.instance.objectNode().put("project", partner.project())
                .put("public_key", partner.publicKeyPem()).put("webhook_url", "https://partner.example/hooks");
        for (String[] testCase : cases) {
            ObjectNode body = valid.deepCopy();
            body.setAll((ObjectNode) new ObjectMapper().readTree("{" + testCase[0] + "}"));
            Answer refused = admin("POST", "/admin/v1/partners", body.toString(), TestServiceProperties.ADMIN_TOKEN);
            assertThat(refused.status()).as(testCase[0] + " -> " + refused).isEqualTo(400);
            assertThat(refused.errorCode()).isEqualTo("invalid_request");
            assertThat(refused.errorDescription()).as(testCase[0]).startsWith(testCase[1] + " ");
        }
        assertThat(admin("GET", "/admin/v1/partners/" + partner.project(), null, TestServiceProperties.ADMIN_TOKEN)
                .status()).as("none of them registered the partner").isEqualTo(404);

        TestPartner registered = registeredPartner("settings-update");
        Answer update = admin("PUT", "/admin/v1/partners/" + registered.project(),
                "{\"fees\":{\"percent_bp\":100,\"fixed\":9223372036854775807}}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(update.status()).isEqualTo(400);
        assertThat(update.errorDescription()).startsWith("fees.fixed ");
        Answer largest = admin("PUT", "/admin/v1/partners/" + registered.project(),
                "{\"fees\":{\"percent_bp\":10000,\"fixed\":" + MAX_AMOUNT + "}}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(largest.status()).as(largest.toString()).isEqualTo(200);
        assertThat(largest.body().path("partner").path("fees").path("fixed").asLong()).isEqualTo(MAX_AMOUNT);
    }

    /**
     * The signed requests' look-up keeps a partner for a second (PartnerDirectory): a key changed through this node's
     * admin API still takes effect at the very next request, the old key refused and the new one accepted.
     */
    @Test
    void aRotatedKeyTakesEffectAtTheNextRequestThoughThePartnerWasJustLookedUp() {
        TestPartner partner = registeredPartner("rotating");
        ObjectNode status = JsonNodeFactory.instance.objectNode().put("session_id", "ps_1");
        // a signed request just before the change: the partner, with its old key, is now kept for a second
        assertThat(partner.post("/api/v1/session/status", status).status()).isNotEqualTo(401);
        TestPartner rotated = TestPartner.withKeys(partner.project(), TestPartner.newKeyPair()).at(baseUrl());

        Answer updated = admin("PUT", "/admin/v1/partners/" + partner.project(),
                JsonNodeFactory.instance.objectNode().put("public_key", rotated.publicKeyPem()).toString(),
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);

        Answer withOldKey = partner.post("/api/v1/session/status", status);
        assertThat(withOldKey.status()).as(withOldKey.toString()).isEqualTo(401);
        assertThat(withOldKey.errorCode()).isEqualTo("authentication_error");
        assertThat(rotated.post("/api/v1/session/status", status).status()).isNotEqualTo(401);
    }

    @Test
    void aPaymentSmallerThanItsFixedFeeIsPaidWithANegativeNet() {
        TestPartner partner = registeredPartner("small-payment"); // 2.5 % + 30
        JsonNode payment = paid(partner, 10).path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("succeeded");
        assertThat(payment.path("amounts").path("gross").path("amount").asLong()).isEqualTo(10);
        assertThat(payment.path("amounts").path("fee").path("merchant_fee").path("amount").asLong()).isEqualTo(30);
        assertThat(payment.path("amounts").path("net").path("amount").asLong()).isEqualTo(-20);
    }

    @Test
    void theLargestAcceptedFeeOnTheLargestAcceptedAmountIsComputedExactly() {
        TestPartner partner = registeredPartner("largest-fee");
        assertThat(admin("PUT", "/admin/v1/partners/" + partner.project(),
                "{\"fees\":{\"percent_bp\":10000,\"fixed\":" + MAX_AMOUNT + "}}", TestServiceProperties.ADMIN_TOKEN)
                .status()).isEqualTo(200);
        JsonNode amounts = paid(partner, MAX_AMOUNT).path("acquiring_payments").path(0).path("amounts");
        assertThat(amounts.path("fee").path("merchant_fee").path("amount").asLong()).isEqualTo(2 * MAX_AMOUNT);
        assertThat(amounts.path("net").path("amount").asLong()).isEqualTo(-MAX_AMOUNT);
    }

    /** A schedule stored before the admin API bounded it (here written past the API, as old events hold it). */
    @Test
    void aFeeScheduleStoredBeforeTheBoundsDoesNotStopPayments() {
        TestPartner partner = new TestPartner("legacy-fee-" + System.nanoTime()).at(baseUrl());
        registration.register(partner.project(), new PartnerSettings(partner.publicKeyPem(), WEBHOOKS.url(partner.project()),
                CaptureMode.AUTO, new FeeSchedule(10_000, Long.MAX_VALUE - 5)));
        JsonNode amounts = paid(partner, 10_000).path("acquiring_payments").path(0).path("amounts");
        assertThat(amounts.path("fee").path("merchant_fee").path("amount").asLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(amounts.path("net").path("amount").asLong()).isEqualTo(10_000 - Long.MAX_VALUE);
    }

    /** A card payment of {@code amount} RUB minor units, confirmed; the session its {@code payment_finished} carries. */
    private JsonNode paid(TestPartner partner, long amount) {
        ObjectNode body = cardPayment("4242424242424242", "123");
        body.putObject("amount_details").put("amount", amount).put("currency", "RUB");
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment", body);
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("status").asText()).as(finished.rawBody()).isEqualTo("accepted");
        return finished.session();
    }

    /** An RSA public key of {@code bits} bits (no private key is needed to be refused). */
    private static String publicKeyWithBits(int bits) throws Exception {
        BigInteger modulus = new BigInteger(bits, new Random(7)).setBit(bits - 1).setBit(0);
        byte[] der = KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(modulus, BigInteger.valueOf(65_537))).getEncoded();
        return TestPartner.pem("PUBLIC KEY", der);
    }

    private static String quoted(String text) {
        return JsonNodeFactory.instance.textNode(text).toString();
    }
}
