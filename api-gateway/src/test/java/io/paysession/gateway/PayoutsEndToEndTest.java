package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.command.vault.PublicTokens;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Money going out, over the signed API of the running service, with every webhook's signature verified. */
class PayoutsEndToEndTest extends EndToEndTestBase {

    @Autowired
    private JdbcTemplate jdbc;
    @Autowired
    private PublicTokens publicTokens;

    @Test
    void aCardPayoutByRawNumberIsConfirmedAndPaidOutInV1() {
        TestPartner partner = registeredPartner("payout");
        ObjectNode body = payout("payment_method", card("bank_card", "number", "4242424242424242"), 150_000, "rub");
        recipient(body).put("full_name", "John Doe");

        Answer init = partner.post("/api/v1/session/init/payout", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        assertThat(init.text()).doesNotContain("4242424242424242");
        String sessionId = init.session().path("id").asText();
        JsonNode payout = init.session().path("payments").path(0);
        assertThat(payout.path("id").asText()).matches("po_\\d+");
        assertThat(payout.path("status").asText()).isEqualTo("in_progress");
        assertThat(payout.path("payment_method")).hasToString(
                "{\"type\":\"card\",\"card\":{\"brand\":\"visa\",\"bin\":\"424242\",\"last4\":\"4242\"}}");
        assertThat(payout.path("participant_details").path("recipient").path("full_name").asText()).isEqualTo("John Doe");

        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(ready.session().path("next_action").asText()).isEqualTo("confirm");
        assertThat(ready.session().path("payments").path(0).path("status").asText()).isEqualTo("pending");
        Answer confirm = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirm.session().path("payments").path(0).path("status").asText()).isEqualTo("in_progress");

        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        JsonNode paid = finished.session().path("payments").path(0);
        assertThat(paid.path("status").asText()).isEqualTo("succeeded");
        assertThat(paid.path("transaction_info").path("rrn").asText()).matches("\\d{12}");
        assertThat(partner.post("/api/v1/session/refund", sessionRef(sessionId)).errorCode())
                .as("payouts cannot be refunded").isEqualTo("session_wrong_state");
    }

    @Test
    void aCardTokenizedOnTheServerIsPaidOutByTokenInV2() {
        TestPartner partner = registeredPartner("tokens");
        Answer tokenized = partner.post("/cds/v1/tokenize/elements",
                "{\"card_elements\":[{\"ref\":\"number\",\"type\":\"card_number\",\"card_number\":\"2200000000000004\"}]}");
        assertThat(tokenized.status()).as(tokenized.toString()).isEqualTo(200);
        JsonNode number = tokenized.body().path("data").path("number");
        String token = number.path("token").asText();
        assertThat(number.path("info").path("masked_card_number").asText()).isEqualTo("220000******0004");
        assertThat(number.path("info").path("card_network").asText()).isEqualTo("mir");
        assertThat(tokenized.text()).doesNotContain("2200000000000004");

        Answer info = partner.post("/api/v1/token/info", "{\"type\":\"card\",\"card\":{\"type\":\"encrypted_card\","
                + "\"encrypted_card\":{\"number_hash\":\"" + token + "\"}}}");
        assertThat(info.body().path("info")).hasToString("{\"number_hash\":\"" + token
                + "\",\"brand\":\"mir\",\"last4\":\"0004\",\"card_type\":\"debit\",\"type\":\"card\"}");

        ObjectNode body = payout("payout_details", card("tokenized_card", "token", token), 5_000, "rub");
        recipient(body).put("full_name", "Пётр Сергеевич Иванов");
        String sessionId = partner.post("/api/v2/session/init/payout", body).session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v2/session/confirm", sessionRef(sessionId));
        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("payout_list").path(0).path("status").asText()).isEqualTo("succeeded");
        assertThat(finished.path("payout_list").path(0).path("payout_details").path("card").path("last4").asText())
                .isEqualTo("0004");

        ObjectNode asNumberHash = payout("payout_details", card("encrypted_card", "number_hash", token), 5_000, "rub");
        recipient(asNumberHash).put("full_name", "Peter Ivanov");
        assertThat(partner.post("/api/v2/session/init/payout", asNumberHash).status())
                .as("the same token serves as encrypted_card.number_hash").isEqualTo(200);

        TestPartner stranger = registeredPartner("stranger");
        Answer foreign = stranger.post("/api/v2/session/init/payout", body);
        assertThat(foreign.status()).isEqualTo(400);
        assertThat(foreign.errorDescription()).contains("payout_details.card.tokenized_card.token");
    }

    @Test
    void payoutsToRussianCardsAreInRublesAndNameTheRecipient() {
        TestPartner partner = registeredPartner("mir");
        ObjectNode dollars = payout("payment_method", card("bank_card", "number", "2200000000000004"), 1_000, "usd");
        recipient(dollars).put("full_name", "Ivan Ivanov");
        Answer refused = partner.post("/api/v1/session/init/payout", dollars);
        assertThat(refused.errorCode()).isEqualTo("invalid_request");
        assertThat(refused.errorDescription()).contains("rub");

        ObjectNode nameless = payout("payment_method", card("bank_card", "number", "2200000000000004"), 1_000, "rub");
        assertThat(partner.post("/api/v1/session/init/payout", nameless).errorDescription())
                .contains("participant_details.recipient.full_name");

        ObjectNode badName = payout("payment_method", card("bank_card", "number", "2200000000000004"), 1_000, "rub");
        recipient(badName).put("full_name", "Ivan 42");
        assertThat(partner.post("/api/v1/session/init/payout", badName).errorDescription())
                .contains("Latin or Cyrillic");
    }

    @Test
    void aCardPayoutTheBankRefusesFails() {
        TestPartner partner = registeredPartner("payoutdecline");
        ObjectNode body = payout("payment_method", card("bank_card", "number", "4000000000000002"), 1_000, "rub");
        recipient(body).put("full_name", "John Doe");
        String sessionId = partner.post("/api/v1/session/init/payout", body).session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));

        JsonNode session = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(session.path("status").asText()).isEqualTo("cancelled");
        assertThat(session.path("payments").path(0).path("error").path("code").asText()).isEqualTo("declined_by_issuer_bank");
    }

    @Test
    void bankAccountPayoutsCheckTheIbanAndFailWhereTheAccountDoesNotExist() {
        TestPartner partner = registeredPartner("iban");
        Answer paid = confirmedPayout(partner, "v2", ibanPayout("global", "DE89 3704 0044 0532 0130 00"));
        assertThat(paid.session().path("payout_list").path(0).path("payout_details").path("bank_account")).hasToString(
                "{\"system_type\":\"global\",\"global\":{\"iban\":\"DE89370400440532013000\",\"description\":\"rent\"}}");
        assertThat(WEBHOOKS.await(paid.session().path("id").asText(), "payment_finished", WEBHOOK_WAIT).session()
                .path("status").asText()).isEqualTo("accepted");

        Answer missing = confirmedPayout(partner, "v1", ibanPayout("iban", "GB33BUKB20201555555555"));
        JsonNode failed = WEBHOOKS.await(missing.session().path("id").asText(), "payment_finished", WEBHOOK_WAIT).session();
        assertThat(failed.path("payments").path(0).path("error").path("code").asText()).isEqualTo("account_not_found");

        Answer badIban = partner.post("/api/v1/session/init/payout", ibanPayout("global", "DE89370400440532013001"));
        assertThat(badIban.errorCode()).isEqualTo("invalid_request");
        assertThat(badIban.errorDescription()).contains("payout_details.bank_account.global.iban", "check digits");

        ObjectNode noName = ibanPayout("global", "DE89370400440532013000");
        ((ObjectNode) noName.path("participant_details").path("recipient")).remove("last_name");
        assertThat(partner.post("/api/v1/session/init/payout", noName).errorDescription()).contains("last_name");
        ObjectNode badCountry = ibanPayout("global", "DE89370400440532013000");
        ((ObjectNode) badCountry.path("participant_details").path("recipient")).put("country_iso3", "XYZ");
        assertThat(partner.post("/api/v1/session/init/payout", badCountry).errorDescription()).contains("country_iso3");
    }

    @Test
    void anInstantPayoutReachesARegisteredPhoneOnly() {
        TestPartner partner = registeredPartner("fpspayout");
        Answer paid = confirmedPayout(partner, "v1", fpsPayout("79261234567"));
        JsonNode done = WEBHOOKS.await(paid.session().path("id").asText(), "payment_finished", WEBHOOK_WAIT).session();
        assertThat(done.path("payments").path(0).path("transaction_info").path("fp_message_id").asText()).matches("A\\d{31}");

        Answer unknown = confirmedPayout(partner, "v1", fpsPayout("79990000000"));
        JsonNode failed = WEBHOOKS.await(unknown.session().path("id").asText(), "payment_finished", WEBHOOK_WAIT).session();
        assertThat(failed.path("payments").path(0).path("error").path("code").asText()).isEqualTo("account_not_found");
    }

    @Test
    void aRecipientVerificationIsConfirmedAtOnceAndEndsWithPaymentFinished() {
        TestPartner partner = registeredPartner("verify");
        for (String version : new String[]{"v1", "v2"}) {
            String found = verify(partner, version, "79261234567");
            JsonNode accepted = WEBHOOKS.await(found, "payment_finished", WEBHOOK_WAIT).session();
            String list = version.equals("v1") ? "payments" : "payout_list";
            assertThat(accepted.path("status").asText()).isEqualTo("accepted");
            assertThat(accepted.path(list).path(0).path("status").asText()).isEqualTo("succeeded");
            assertThat(WEBHOOKS.forSession(found)).extracting(Received::type).containsExactly("payment_finished");

            String notFound = verify(partner, version, "79260000000");
            JsonNode cancelled = WEBHOOKS.await(notFound, "payment_finished", WEBHOOK_WAIT).session();
            assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
            assertThat(cancelled.path(list).path(0).path("status").asText()).isEqualTo("failed");
        }
    }

    @Test
    void aPayoutCreatedThenStartedTakesItsAmountAtStartAndCanBeCancelled() {
        TestPartner partner = registeredPartner("payoutcreate");
        ObjectNode create = JsonNodeFactory.instance.objectNode();
        create.set("payout_details", card("bank_card", "number", "5555555555554444"));
        recipient(create).put("full_name", "Jane Roe");
        Answer created = partner.post("/api/v2/session/create", create);
        assertThat(created.session().path("status").asText()).isEqualTo("created");
        String sessionId = created.session().path("id").asText();

        Answer withoutAmount = partner.post("/api/v2/session/start/payout", sessionRef(sessionId));
        assertThat(withoutAmount.errorDescription()).contains("amount_details");
        ObjectNode start = sessionRef(sessionId);
        start.putObject("amount_details").put("amount", 2500).put("currency", "eur");
        assertThat(partner.post("/api/v2/session/start/payout", start).session().path("payout_list").path(0)
                .path("amount_details")).hasToString("{\"amount\":2500,\"currency\":\"eur\"}");
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

        Answer cancel = partner.post("/api/v2/session/cancel", sessionRef(sessionId));
        assertThat(cancel.session().path("status").asText()).isEqualTo("cancelled");
        assertThat(cancel.session().path("payout_list").path(0).path("status").asText()).isEqualTo("failed");
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("error").path("code")
                .asText()).isEqualTo("session_cancelled_by_partner");
    }

    @Test
    void theInstantPaymentBanksAreListedForASignedEmptyRequest() {
        TestPartner partner = registeredPartner("banks");
        Answer banks = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/fps/banks"))
                .header("X-PARTNER-PROJECT", partner.project())
                .header("X-PARTNER-SIGN", partner.sign("[]".getBytes(StandardCharsets.UTF_8)))
                .GET().build());
        assertThat(banks.status()).as(banks.toString()).isEqualTo(200);
        assertThat(banks.body().path("banks").findValuesAsText("id")).contains("100000000069");
        assertThat(banks.body().path("banks").path(0).has("eng_name")).isTrue();
    }

    @Test
    void aPublicTokenIsSixtyFourHexCharacters() {
        TestPartner partner = registeredPartner("publictoken");
        Answer token = partner.post("/api/v1/token", "{\"tokenize_widget\":{\"access\":true,\"locale\":\"ru\"}}");
        assertThat(token.body().path("public_token").asText()).matches("[0-9a-f]{64}");
        assertThat(partner.post("/api/v1/token", "{}").errorDescription()).contains("tokenize_widget");
        assertThat(partner.post("/api/v1/token", "{\"tokenize_widget\":{\"locale\":\"de\"}}").errorDescription())
                .contains("locale");
        assertThat(partner.post("/api/v1/token", "{\"tokenize_widget\":{\"access\":1}}").errorDescription())
                .isEqualTo("tokenize_widget.access must be true or false");
    }

    @Test
    void aPublicTokenIsKeptOnlyAsItsHashAndServesOnce() {
        TestPartner partner = registeredPartner("publictokenhash");
        String token = partner.post("/api/v1/token", "{\"tokenize_widget\":{\"access\":true}}").body()
                .path("public_token").asText();
        assertThat(jdbc.queryForObject("select count(*) from public_token where token = ?", Integer.class, token))
                .as("the token itself is not stored").isZero();
        assertThat(jdbc.queryForObject("select count(*) from public_token where project = ?", Integer.class,
                partner.project())).isEqualTo(1);

        assertThat(publicTokens.use(token)).contains(partner.project());
        assertThat(publicTokens.use(token)).as("one use").isEmpty();
        assertThat(publicTokens.use(token.substring(0, 63) + (token.endsWith("0") ? "1" : "0"))).isEmpty();
    }

    @Test
    void aSubmerchantsRequestCarriesTheSubmerchantMetadata() {
        TestPartner partner = registeredPartner("marketplace");
        ObjectNode body = payout("payment_method", card("bank_card", "number", "4242424242424242"), 1_000, "rub");
        recipient(body).put("full_name", "John Doe");
        byte[] without = body.toString().getBytes(StandardCharsets.UTF_8);
        Answer refused = partner.send("/api/v1/session/init/payout", without, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", partner.sign(without), "X-PARTNER-SUBMERCHANT", "sm-7"));
        assertThat(refused.errorDescription()).contains("submerchant");

        body.putObject("metadata").put("merchant", "market").put("submerchant", "https://seller.example");
        byte[] with = body.toString().getBytes(StandardCharsets.UTF_8);
        Answer accepted = partner.send("/api/v1/session/init/payout", with, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", partner.sign(with), "X-PARTNER-SUBMERCHANT", "sm-7"));
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
        assertThat(accepted.session().path("payments").path(0).path("metadata").path("submerchant").asText())
                .isEqualTo("https://seller.example");
    }

    private String verify(TestPartner partner, String version, String phone) {
        String sessionId = partner.post("/api/" + version + "/session/create", "{}").session().path("id").asText();
        ObjectNode body = sessionRef(sessionId);
        String details = version.equals("v1") ? "payment_method" : "payout_details";
        body.putObject(details).put("type", "bank_account").putObject("bank_account")
                .put("system_type", "faster_payment_system_verification")
                .putObject("faster_payment_system_verification").put("phone", phone).put("bank_id", "100000000069");
        recipient(body).put("first_name", "Ivan").put("last_name", "Ivanov").put("middle_name", "Ivanovich");
        Answer verification = partner.post("/api/" + version + "/fps/customer_verification", body);
        assertThat(verification.status()).as(verification.toString()).isEqualTo(200);
        String list = version.equals("v1") ? "payments" : "payout_list";
        assertThat(verification.session().path(list).path(0).path("status").asText()).isEqualTo("in_progress");
        assertThat(verification.session().has("next_action")).isFalse();
        return sessionId;
    }

    private Answer confirmedPayout(TestPartner partner, String version, ObjectNode body) {
        Answer init = partner.post("/api/" + version + "/session/init/payout", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        return partner.post("/api/" + version + "/session/confirm", sessionRef(sessionId));
    }

    private static ObjectNode ibanPayout(String system, String iban) {
        ObjectNode account = JsonNodeFactory.instance.objectNode().put("type", "bank_account");
        ObjectNode bankAccount = account.putObject("bank_account").put("system_type", system);
        if (system.equals("global")) {
            bankAccount.putObject("global").put("iban", iban).put("description", "rent");
        } else {
            bankAccount.putObject("iban").put("account", iban);
        }
        ObjectNode body = payout("payout_details", account, 30_000, "eur");
        recipient(body).put("first_name", "Hans").put("last_name", "Müller").put("bank_name", "Example Bank")
                .put("currency", "eur").put("country_iso3", "DEU");
        return body;
    }

    @Test
    void payoutDetailsUnderBothNamesAtOnceAreRefused() {
        TestPartner partner = registeredPartner("bothnames");
        ObjectNode body = payout("payout_details", card("bank_card", "number", "4242424242424242"), 1_000, "rub");
        body.set("payment_method", card("bank_card", "number", "5555555555554444"));
        recipient(body).put("full_name", "John Doe");
        Answer answer = partner.post("/api/v2/session/init/payout", body);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("invalid_request");
        assertThat(answer.errorDescription()).contains("payout_details").contains("payment_method");
    }

    private static ObjectNode fpsPayout(String phone) {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "bank_account");
        details.putObject("bank_account").put("system_type", "faster_payment_system")
                .putObject("faster_payment_system").put("phone", phone).put("bank_id", "100000000069")
                .put("description", "salary");
        return payout("payment_method", details, 10_000, "rub");
    }

    private static ObjectNode card(String type, String field, String value) {
        ObjectNode details = JsonNodeFactory.instance.objectNode().put("type", "card");
        details.putObject("card").put("type", type).putObject(type).put(field, value);
        return details;
    }

    private static ObjectNode payout(String detailsName, ObjectNode details, long amount, String currency) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set(detailsName, details);
        body.putObject("amount_details").put("amount", amount).put("currency", currency);
        return body;
    }

    private static ObjectNode recipient(ObjectNode body) {
        ObjectNode participants = body.has("participant_details") ? (ObjectNode) body.get("participant_details")
                : body.putObject("participant_details");
        return participants.has("recipient") ? (ObjectNode) participants.get("recipient") : participants.putObject("recipient");
    }
}
