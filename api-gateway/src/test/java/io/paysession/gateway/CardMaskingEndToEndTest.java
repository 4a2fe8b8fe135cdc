package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.StoredText;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A card number shorter than 15 digits shows fewer than six leading digits (PCI DSS 3.4.1: at most the digits the
 * truncation rules allow for its length; six and four of twelve would leave two hidden): in tokenization answers,
 * session answers, webhooks, the vault's clear columns and the events.
 */
class CardMaskingEndToEndTest extends EndToEndTestBase {

    /** Luhn-valid, 12, 13 and 14 digits; "678901", their first six, is shown for none of them. */
    private static final String TWELVE = "678901234560";
    private static final String THIRTEEN = "6789012345676";
    private static final String FOURTEEN = "67890123456786";

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aShortCardNumberShowsOnlyTheLeadingDigitsItsLengthAllows() throws IOException {
        TestPartner partner = registeredPartner("masking");
        ObjectNode tokenize = JsonNodeFactory.instance.objectNode();
        tokenize.putArray("card_elements")
                .add(element("twelve", TWELVE)).add(element("thirteen", THIRTEEN)).add(element("fourteen", FOURTEEN));
        Answer tokens = partner.post("/cds/v1/tokenize/elements", tokenize);
        assertThat(tokens.status()).as(tokens.toString()).isEqualTo(200);
        assertThat(tokens.body().at("/data/twelve/info/masked_card_number").asText()).isEqualTo("67******4560");
        assertThat(tokens.body().at("/data/thirteen/info/masked_card_number").asText()).isEqualTo("678******5676");
        assertThat(tokens.body().at("/data/fourteen/info/masked_card_number").asText()).isEqualTo("6789******6786");

        Answer init = partner.post("/api/v1/session/init/payment", cardPayment(TWELVE, "123"));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        assertThat(card(init.session())).hasToString("{\"brand\":\"maestro\",\"bin\":\"67\",\"last4\":\"4560\"}");
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("accepted");
        assertThat(card(finished).path("bin").asText()).isEqualTo("67");

        assertThat(jdbc.queryForList("select bin from card_vault where project = ? order by length(bin)", String.class,
                partner.project())).containsExactly("67", "67", "678", "6789");
        assertThat(StoredText.placesHolding(jdbc, List.of("678901"))).as("the first six of a short number").isEmpty();
        assertThat(Files.readString(Path.of(LOG_FILE), StandardCharsets.UTF_8)).contains(sessionId)
                .doesNotContain("678901");
    }

    private static ObjectNode element(String ref, String number) {
        return JsonNodeFactory.instance.objectNode().put("ref", ref).put("type", "card_number").put("card_number", number);
    }

    private static JsonNode card(JsonNode session) {
        return session.at("/acquiring_payments/0/payment_details/card");
    }
}
