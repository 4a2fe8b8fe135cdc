package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code api/v1/token/info} for its three kinds of token (production-facts section 4): a card token with the type
 * its issuer range gives (the sandbox's test cards have one), a public token (issued, expiry, active until used
 * once), and a recurrent token (as {@code recurrent/status} tells it). A token of another project, or none, is
 * refused alike.
 */
class TokenInfoEndToEndTest extends EndToEndTestBase {

    @Test
    void aCardTokenShowsTheTypeOfItsIssuerRangeInTokenizationAndInfo() {
        TestPartner partner = registeredPartner("info-cards");
        assertCardType(partner, "4242424242424242", "credit");
        assertCardType(partner, "5555555555554444", "debit");
        assertCardType(partner, "2200000000000004", "debit");
        assertCardType(partner, "5105105105105100", "prepaid");
        assertCardType(partner, "4000000000000002", "credit");
        assertCardType(partner, "6011000990139424", "unknown");
    }

    private void assertCardType(TestPartner partner, String number, String type) {
        Answer tokenized = partner.post("/cds/v1/tokenize/elements", "{\"card_elements\":[{\"ref\":\"n\","
                + "\"type\":\"card_number\",\"card_number\":\"" + number + "\"}]}");
        assertThat(tokenized.status()).as(tokenized.toString()).isEqualTo(200);
        assertThat(tokenized.body().at("/data/n/info/card_type").asText()).as(number).isEqualTo(type);
        String token = tokenized.body().at("/data/n/token").asText();
        Answer info = partner.post("/api/v1/token/info", "{\"type\":\"card\",\"card\":{\"type\":\"encrypted_card\","
                + "\"encrypted_card\":{\"number_hash\":\"" + token + "\"}}}");
        assertThat(info.status()).as(info.toString()).isEqualTo(200);
        assertThat(info.body().at("/info/card_type").asText()).as(number).isEqualTo(type);
        assertThat(info.body().at("/info/last4").asText()).isEqualTo(number.substring(12));
        assertThat(info.text()).doesNotContain(number);
    }

    @Test
    void aPublicTokenIsActiveUntilItsOneUseThenFinishedAtThatUse() {
        TestPartner partner = registeredPartner("info-public");
        Instant before = Instant.now().minusSeconds(1);
        String publicToken = publicToken(partner);

        JsonNode fresh = publicTokenInfo(partner, publicToken);
        assertThat(fresh.path("token").asText()).isEqualTo(publicToken);
        assertThat(fresh.path("type").asText()).isEqualTo("public_token");
        assertThat(fresh.path("is_active").asBoolean(false)).isTrue();
        assertThat(fresh.has("finished_at")).isFalse();
        Instant created = Instant.parse(fresh.path("created_at").asText());
        assertThat(created).isAfter(before).isBefore(Instant.now().plusSeconds(1));
        assertThat(Duration.between(created, Instant.parse(fresh.path("expires_at").asText())))
                .isEqualTo(Duration.ofHours(24));

        assertThat(tokenizeCard(publicToken, "{\"card\":{\"number\":\"4242424242424242\"}}").status()).isEqualTo(200);

        JsonNode used = publicTokenInfo(partner, publicToken);
        assertThat(used.path("is_active").asBoolean(true)).isFalse();
        assertThat(Instant.parse(used.path("finished_at").asText())).isAfterOrEqualTo(created)
                .isBeforeOrEqualTo(Instant.now());

        TestPartner stranger = registeredPartner("info-public-stranger");
        assertThat(stranger.post("/api/v1/token/info", publicTokenInfoBody(publicToken)).errorCode())
                .isEqualTo("invalid_request");
        Answer unknown = partner.post("/api/v1/token/info", publicTokenInfoBody("ab".repeat(32)));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorDescription()).isEqualTo(stranger.post("/api/v1/token/info",
                publicTokenInfoBody(publicToken)).errorDescription());
    }

    @Test
    void anUnknownTypeOrAMissingObjectNamesTheField() {
        TestPartner partner = registeredPartner("info-shape");
        Answer type = partner.post("/api/v1/token/info", "{\"type\":\"subscription\"}");
        assertThat(type.status()).isEqualTo(400);
        assertThat(type.errorCode()).isEqualTo("invalid_request");
        assertThat(type.errorDescription()).contains("card, public_token or recurrent_token");
        assertThat(partner.post("/api/v1/token/info", "{\"type\":\"public_token\"}").errorDescription())
                .contains("public_token is required");
        assertThat(partner.post("/api/v1/token/info", "{\"type\":\"recurrent_token\",\"recurrent_token\":{}}")
                .errorDescription()).contains("recurrent_token.token is required");
        assertThat(partner.post("/api/v1/token/info", "{\"type\":\"recurrent_token\",\"recurrent_token\":"
                + "{\"token\":\"rt_00000000000000000000000000000000\"}}").errorDescription())
                .contains("not a recurrent token of this project");
    }

    private JsonNode publicTokenInfo(TestPartner partner, String publicToken) {
        Answer info = partner.post("/api/v1/token/info", publicTokenInfoBody(publicToken));
        assertThat(info.status()).as(info.toString()).isEqualTo(200);
        return info.body().path("info");
    }

    private static String publicTokenInfoBody(String publicToken) {
        return "{\"type\":\"public_token\",\"public_token\":{\"token\":\"" + publicToken + "\"}}";
    }
}
