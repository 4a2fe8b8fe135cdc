package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /cds/v1/tokenize/card}, the widget's call, over plain HTTP as a browser (or a native client) makes
 * it: no partner signature, the one-use public token in {@code X-PUBLIC-TOKEN}.
 */
class TokenizeCardWithPublicTokenTest extends EndToEndTestBase {

    private static final String VISA = "4242424242424242";

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aCardNumberIsTokenizedWithAPublicTokenAndNoSignature() {
        TestPartner partner = registeredPartner("widget-http");
        String publicToken = publicToken(partner);

        Answer tokenized = tokenizeCard(publicToken, "{\"card\":{\"number\":\"2200000000000004\","
                + "\"expiration_month\":\"12\",\"expiration_year\":\"34\",\"security_code\":\"987\"}}");

        assertThat(tokenized.status()).as(tokenized.toString()).isEqualTo(200);
        assertThat(tokenized.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("application/json"));
        String token = tokenized.body().path("data").path("token").asText();
        assertThat(token).matches("card_[0-9a-f]{32}");
        assertThat(tokenized.text()).isEqualTo("{\"status\":\"ok\",\"data\":{\"token\":\"" + token + "\",\"info\":"
                + "{\"masked_card_number\":\"220000******0004\",\"card_network\":\"mir\",\"card_type\":\"debit\"}}}");
        assertThat(tokenized.headers().firstValue("X-Request-Id")).hasValueSatisfying(id -> assertThat(id).startsWith("req_"));
        Map<String, Object> stored = jdbc.queryForMap(
                "select project, cvc_ciphertext, expiry_month, expiry_year from card_vault where token = ?", token);
        assertThat(stored.get("project")).as("the card belongs to the public token's project").isEqualTo(partner.project());
        assertThat(stored.get("cvc_ciphertext")).as("a security code sent along is not kept").isNull();
        assertThat(stored.get("expiry_month")).as("nor the expiry").isNull();
        assertThat(stored.get("expiry_year")).isNull();
    }

    @Test
    void aMissingMalformedOrUnknownPublicTokenIsAnAuthenticationError() {
        String card = "{\"card\":{\"number\":\"" + VISA + "\"}}";

        Answer missing = tokenizeCard(null, card);
        assertThat(missing.status()).isEqualTo(401);
        assertThat(missing.errorCode()).isEqualTo("authentication_error");
        assertThat(missing.errorDescription()).contains("X-PUBLIC-TOKEN");

        Answer malformed = tokenizeCard("not-a-token", card);
        assertThat(malformed.status()).isEqualTo(401);
        assertThat(malformed.errorCode()).isEqualTo("authentication_error");

        Answer unknown = tokenizeCard("ab".repeat(32), card);
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.errorCode()).isEqualTo("authentication_error");
        assertThat(unknown.text()).doesNotContain(VISA).doesNotContain("null");
    }

    @Test
    void aPublicTokenTokenizesOneCardOnly() {
        String publicToken = publicToken(registeredPartner("widget-once"));
        assertThat(tokenizeCard(publicToken, "{\"card\":{\"number\":\"" + VISA + "\"}}").status()).isEqualTo(200);

        Answer again = tokenizeCard(publicToken, "{\"card\":{\"number\":\"5555555555554444\"}}");

        assertThat(again.status()).isEqualTo(401);
        assertThat(again.errorCode()).isEqualTo("authentication_error");
        assertThat(again.errorDescription()).isEqualTo("The public token is unknown, expired or already used");
    }

    @Test
    void aPublicTokenIsRefusedAfterItsTwentyFourHours() {
        String publicToken = publicToken(registeredPartner("widget-expired"));
        // tokens are stored as their SHA-256
        assertThat(jdbc.queryForObject("select expires_at - created_at = interval '24 hours' from public_token "
                + "where token = encode(sha256(convert_to(?, 'UTF8')), 'hex')", Boolean.class, publicToken)).isTrue();
        // the passage of 24 hours
        jdbc.update("update public_token set expires_at = now() - interval '1 second' "
                + "where token = encode(sha256(convert_to(?, 'UTF8')), 'hex')", publicToken);

        Answer expired = tokenizeCard(publicToken, "{\"card\":{\"number\":\"" + VISA + "\"}}");

        assertThat(expired.status()).isEqualTo(401);
        assertThat(expired.errorCode()).isEqualTo("authentication_error");
    }

    @Test
    void aNumberFailingTheLuhnCheckIsRefusedWithoutUsingThePublicToken() {
        String publicToken = publicToken(registeredPartner("widget-luhn"));

        Answer typo = tokenizeCard(publicToken, "{\"card\":{\"number\":\"4242424242424241\"}}");

        assertThat(typo.status()).isEqualTo(400);
        assertThat(typo.errorCode()).isEqualTo("card_number_does_not_exist");
        assertThat(typo.text()).doesNotContain("4242424242424241");
        Answer corrected = tokenizeCard(publicToken, "{\"card\":{\"number\":\"" + VISA + "\"}}");
        assertThat(corrected.status()).as("the same token still works: " + corrected).isEqualTo(200);
        assertThat(corrected.body().at("/data/info/card_network").asText()).isEqualTo("visa");
    }

    @Test
    void malformedRequestsNameTheFieldAndKeepThePublicToken() {
        String publicToken = publicToken(registeredPartner("widget-shape"));

        assertRefused(tokenizeCard(publicToken, "{}"), 400, "invalid_request", "card is required");
        assertRefused(tokenizeCard(publicToken, "{\"card\":{}}"), 400, "invalid_request", "card.number is required");
        assertRefused(tokenizeCard(publicToken, "{\"card\":{\"number\":" + VISA + "}}"), 400, "invalid_request",
                "card.number must be a string");
        assertRefused(tokenizeCard(publicToken, "{\"card\":{\"number\":\"4242 4242\"}}"), 400, "invalid_request",
                "card.number must be 12 to 19 digits");
        assertRefused(tokenizeCard(publicToken, "{\"card\":\"" + VISA + "\"}"), 400, "invalid_request",
                "card must be an object");
        assertRefused(tokenizeCard(publicToken, "{\"card\":{\"number\":\"" + VISA + "\"}"), 400, "invalid_request",
                "not valid JSON");
        assertRefused(tokenizeCard(publicToken, "{\"card\":{\"number\":\"" + VISA + "\"},\"padding\":\""
                + "x".repeat(64 * 1024) + "\"}"), 413, "invalid_request", "64 KiB");

        assertThat(tokenizeCard(publicToken, "{\"card\":{\"number\":\"" + VISA + "\"}}").status())
                .as("none of these used the token up").isEqualTo(200);
        assertRefused(tokenizeCard(publicToken, "{}"), 401, "authentication_error", "already used");
    }

    @Test
    void theCardTokenPaysOutOnlyForThePublicTokensProject() {
        TestPartner owner = registeredPartner("widget-owner");
        TestPartner stranger = registeredPartner("widget-stranger");
        Answer tokenized = tokenizeCard(publicToken(owner), "{\"card\":{\"number\":\"5555555555554444\"}}");
        String cardToken = tokenized.body().path("data").path("token").asText();

        Answer foreign = stranger.post("/api/v1/session/init/payout", "{\"payment_method\":{\"type\":\"card\","
                + "\"card\":{\"type\":\"encrypted_card\",\"encrypted_card\":{\"number_hash\":\"" + cardToken + "\"}}},"
                + "\"amount_details\":{\"amount\":1000,\"currency\":\"rub\"},"
                + "\"participant_details\":{\"recipient\":{\"full_name\":\"Anna Petrova\"}}}");
        assertThat(foreign.status()).isEqualTo(400);
        assertThat(foreign.errorCode()).isEqualTo("invalid_request");
        assertThat(foreign.errorDescription()).contains("payment_method.card.encrypted_card.number_hash");

        Received finished = payOutByWidgetToken(owner, cardToken);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        JsonNode payout = finished.session().path("payments").path(0);
        assertThat(payout.path("status").asText()).isEqualTo("succeeded");
        assertThat(payout.path("payment_method").path("card").path("last4").asText()).isEqualTo("4444");
    }

    @Test
    void onlyTheWidgetsPathGoesWithoutAPartnerSignature() {
        String publicToken = publicToken(registeredPartner("widget-exempt"));
        TestPartner unsigned = new TestPartner("nobody").at(baseUrl());
        byte[] body = ("{\"card_elements\":[{\"ref\":\"number\",\"type\":\"card_number\",\"card_number\":\"" + VISA
                + "\"}]}").getBytes(StandardCharsets.UTF_8);

        Answer elements = unsigned.send("/cds/v1/tokenize/elements", body, Map.of("X-PUBLIC-TOKEN", publicToken));
        assertThat(elements.status()).isEqualTo(403);
        assertThat(elements.errorCode()).isEqualTo("authorization_error");
        Answer below = unsigned.send("/cds/v1/tokenize/card/extra", body, Map.of("X-PUBLIC-TOKEN", publicToken));
        assertThat(below.status()).isEqualTo(403);
        Answer beside = unsigned.send("/cds/v1/tokenize/cards", body, Map.of("X-PUBLIC-TOKEN", publicToken));
        assertThat(beside.status()).isEqualTo(403);
    }

    private static void assertRefused(Answer answer, int status, String code, String description) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.errorCode()).isEqualTo(code);
        assertThat(answer.errorDescription()).contains(description);
        assertThat(answer.text()).doesNotContain(VISA);
    }
}
