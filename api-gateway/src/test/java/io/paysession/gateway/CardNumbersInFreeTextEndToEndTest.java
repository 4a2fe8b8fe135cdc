package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.StoredText;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A card number written into a free-form field (metadata, items, descriptions, the customer's reference, ...) of
 * any request, in v1 and v2, is refused with {@code invalid_request} naming the field by its JSON path and not
 * quoting it, before anything is stored; digit runs that are no card number (an order number failing the Luhn
 * check, phones, a registration number) pass.
 */
class CardNumbersInFreeTextEndToEndTest extends EndToEndTestBase {

    private static final String NUMBER = "4111111111111111";
    private static final String WRITTEN = "4111 1111 1111 1111";

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aCardNumberInAnyFreeFormFieldOfAnyRequestIsRefusedNamingTheField() {
        TestPartner partner = registeredPartner("freetext");
        String created = partner.post("/api/v1/session/create", "{}").session().path("id").asText();
        String paid = paidSession(partner, cardPayment("4242424242424242", "123"));

        Map<String, Answer> answers = new LinkedHashMap<>();
        answer(answers, partner, "v1", "/session/init/payment", "metadata.note",
                payment(body -> body.putObject("metadata").put("note", "card " + WRITTEN)));
        answer(answers, partner, "v2", "/session/init/payment", "items[1].name",
                payment(body -> {
                    ArrayNode items = body.putArray("items");
                    items.addObject().put("name", "mug");
                    items.addObject().put("name", NUMBER);
                    return body;
                }));
        answer(answers, partner, "v1", "/session/init/payment", "payment_options.description",
                payment(body -> body.putObject("payment_options").put("description", "pay by " + NUMBER)));
        answer(answers, partner, "v2", "/session/init/payment", "customer.reference",
                payment(body -> body.putObject("customer").put("reference", NUMBER)));
        answer(answers, partner, "v1", "/session/init/payment", "metadata",
                payment(body -> body.put("metadata", Long.parseLong(NUMBER))));
        answer(answers, partner, "v2", "/session/init/payment", "payment_details.faster_payment_system.description",
                payment(body -> {
                    body.putObject("payment_details").put("type", "faster_payment_system")
                            .putObject("faster_payment_system").put("description", WRITTEN);
                    return body;
                }));
        answer(answers, partner, "v1", "/session/create", "metadata",
                payment(body -> body.put("metadata", "order for card " + NUMBER)));
        answer(answers, partner, "v2", "/session/start/payment", "participant_details.sender.company_name",
                payment(body -> {
                    body.put("session_id", created);
                    body.putObject("participant_details").putObject("sender").put("company_name", WRITTEN);
                    return body;
                }));
        answer(answers, partner, "v1", "/session/init/payout", "payment_method.bank_account.global.description",
                ibanPayout("payment_method", "card " + NUMBER));
        answer(answers, partner, "v2", "/session/init/payout", "payout_details.bank_account.global.description",
                ibanPayout("payout_details", NUMBER));
        ObjectNode startPayout = ibanPayout("payment_method", "rent");
        startPayout.put("session_id", created);
        ((ObjectNode) startPayout.at("/participant_details/recipient")).put("bank_name", "Bank " + WRITTEN);
        answer(answers, partner, "v1", "/session/start/payout", "participant_details.recipient.bank_name", startPayout);
        ObjectNode verification = verification(created);
        verification.putObject("customer").put("reference", NUMBER);
        answer(answers, partner, "v2", "/fps/customer_verification", "customer.reference", verification);
        ObjectNode refund = sessionRef(paid);
        refund.putObject("metadata").putObject("reason").put("text", "refund to " + WRITTEN);
        answer(answers, partner, "v1", "/session/refund", "metadata.reason.text", refund);
        ObjectNode tokenize = JsonNodeFactory.instance.objectNode();
        tokenize.putArray("card_elements").addObject().put("ref", NUMBER).put("type", "card_number")
                .put("card_number", "4242424242424242");
        answers.put("card_elements[0].ref", partner.post("/cds/v1/tokenize/elements", tokenize));

        answers.forEach((path, answer) -> {
            assertThat(answer.status()).as(path + ": " + answer).isEqualTo(400);
            assertThat(answer.errorCode()).as(path).isEqualTo("invalid_request");
            assertThat(answer.errorDescription()).as(path).startsWith(path + " ")
                    .contains("card number").doesNotContain("4111");
        });
        assertThat(StoredText.placesHolding(jdbc, List.of(NUMBER, WRITTEN))).as("nothing of a refused request is stored")
                .isEmpty();
        assertThat(jdbc.queryForObject("select count(*) from card_vault where project = ?", Integer.class,
                partner.project())).as("only the card of the paid session").isEqualTo(1);
    }

    @Test
    void digitRunsThatAreNoCardNumberPass() {
        TestPartner partner = registeredPartner("freetext-ok");
        ObjectNode body = cardPayment("4242424242424242", "123");
        body.putObject("metadata").put("order_number", "1234567812345678").put("order_id", 1234567812345678L)
                .put("phone", "+7 926 123-45-67");
        body.putArray("items").addObject().put("name", "sizes 42 42 42 42 42 42 42 42").put("sku", "4242424242424241");
        body.putObject("customer").put("reference", "customer-1234567812345678").putArray("contacts").addObject()
                .put("phone", "4222222222222");
        body.putObject("participant_details").putObject("sender").put("registration_number", "4222222222222");
        body.putObject("payment_options").put("return_url", "https://shop.example/orders/4111111111111111");

        String sessionId = paidSession(partner, body);
        ObjectNode refund = sessionRef(sessionId);
        refund.put("metadata", "refund of order 1234567812345678");
        Answer refunded = partner.post("/api/v2/session/refund", refund);
        assertThat(refunded.status()).as(refunded.toString()).isEqualTo(200);
        assertThat(refunded.session().at("/payment_list/0/metadata/order_number").asText()).isEqualTo("1234567812345678");
    }

    private String paidSession(TestPartner partner, ObjectNode body) {
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("accepted");
        return sessionId;
    }

    private static void answer(Map<String, Answer> answers, TestPartner partner, String version, String path,
                               String field, ObjectNode body) {
        answers.put(field, partner.post("/api/" + version + path, body));
    }

    /** A card payment (a valid one) changed by {@code change}. */
    private static ObjectNode payment(Function<ObjectNode, ObjectNode> change) {
        ObjectNode body = cardPayment("5555555555554444", "123");
        change.apply(body);
        return body;
    }

    private static ObjectNode ibanPayout(String detailsName, String description) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject(detailsName).put("type", "bank_account").putObject("bank_account").put("system_type", "global")
                .putObject("global").put("iban", "DE89370400440532013000").put("description", description);
        body.putObject("amount_details").put("amount", 30_000).put("currency", "eur");
        body.putObject("participant_details").putObject("recipient").put("first_name", "Hans").put("last_name", "Meyer");
        return body;
    }

    private static ObjectNode verification(String sessionId) {
        ObjectNode body = sessionRef(sessionId);
        body.putObject("payout_details").put("type", "bank_account").putObject("bank_account")
                .put("system_type", "faster_payment_system_verification")
                .putObject("faster_payment_system_verification").put("phone", "79261234567").put("bank_id", "100000000069");
        body.putObject("participant_details").putObject("recipient").put("first_name", "Ivan").put("last_name", "Ivanov");
        return body;
    }
}
