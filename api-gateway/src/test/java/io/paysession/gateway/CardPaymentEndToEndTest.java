package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class CardPaymentEndToEndTest extends EndToEndTestBase {

    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z");

    @Test
    void approvedCardPaymentGoesFromInitToASignedPaymentFinishedInV1() {
        TestPartner partner = registeredPartner("shop");

        Answer init = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        assertThat(init.body().path("status").asText()).isEqualTo("ok");
        JsonNode session = init.session();
        String sessionId = session.path("id").asText();
        assertThat(sessionId).matches("ps_\\d+");
        assertThat(session.path("status").asText()).isEqualTo("in_progress");
        assertThat(session.path("created_at").asText()).matches(TIMESTAMP);
        JsonNode payment = session.path("acquiring_payments").path(0);
        assertThat(payment.path("id").asText()).matches("pm_\\d+");
        assertThat(payment.path("status").asText()).isEqualTo("in_progress");
        assertThat(payment.path("payment_details").path("card")).isEqualTo(json(
                "{\"brand\":\"visa\",\"bin\":\"424242\",\"last4\":\"4242\"}"));
        assertThat(payment.path("amount_details")).isEqualTo(json("{\"amount\":10000,\"currency\":\"rub\"}"));
        assertThat(payment.path("customer").path("reference").asText()).isEqualTo("customer-42");
        assertThat(payment.path("metadata").asText()).isEqualTo("order 42");
        assertThat(init.text()).doesNotContain("4242424242424242").doesNotContain("null");

        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(ready.signatureValid()).isTrue();
        assertThat(ready.webhookId()).isNotBlank();
        assertThat(ready.path()).isEqualTo("/hooks/" + partner.project());
        assertThat(ready.session().path("status").asText()).isEqualTo("in_progress");
        assertThat(ready.session().path("next_action").asText()).isEqualTo("confirm");
        assertThat(ready.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("pending");

        Answer statusBeforeConfirm = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(statusBeforeConfirm.session()).isEqualTo(ready.session());

        Answer confirm = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        assertThat(confirm.session().path("status").asText()).isEqualTo("in_progress");
        assertThat(confirm.session().has("next_action")).isFalse();
        assertThat(confirm.session().path("actions").path("confirm").asText()).matches(TIMESTAMP);
        assertThat(confirm.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("pending");

        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.signatureValid()).isTrue();
        JsonNode finalSession = finished.session();
        assertThat(finalSession.path("status").asText()).isEqualTo("accepted");
        assertThat(finalSession.path("actions").path("confirm").asText())
                .isEqualTo(confirm.session().path("actions").path("confirm").asText());
        JsonNode succeeded = finalSession.path("acquiring_payments").path(0);
        assertThat(succeeded.path("status").asText()).isEqualTo("succeeded");
        assertThat(succeeded.path("finished_at").asText()).matches(TIMESTAMP);
        assertThat(succeeded.path("transaction_info").path("rrn").asText()).matches("\\d{12}");
        assertThat(succeeded.path("transaction_info").path("auth_code").asText()).matches("[A-Z0-9]{6}");
        // 30 + 10000 * 250 / 10000
        assertThat(succeeded.path("amounts").path("fee").path("merchant_fee"))
                .isEqualTo(json("{\"amount\":280,\"currency\":\"rub\"}"));
        assertThat(finished.rawBody()).doesNotContain("4242424242424242").doesNotContain("null");

        Answer status = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(status.session()).isEqualTo(finalSession);
        assertThat(WEBHOOKS.forSession(sessionId)).extracting(Received::type)
                .containsExactly("ready_to_confirm", "payment_finished");
        assertThat(WEBHOOKS.forSession(sessionId)).extracting(Received::webhookId).doesNotHaveDuplicates();
    }

    @Test
    void apiV2NamesThePaymentListInResponsesAndWebhooks() {
        TestPartner partner = registeredPartner("v2shop");

        Answer init = partner.post("/api/v2/session/init/payment", cardPayment("5555555555554444", "321"));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        assertThat(init.session().has("acquiring_payments")).isFalse();
        assertThat(init.session().path("payment_list").path(0).path("payment_details").path("card").path("brand")
                .asText()).isEqualTo("mastercard");

        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(ready.session().path("payment_list").path(0).path("status").asText()).isEqualTo("pending");
        assertThat(ready.session().has("acquiring_payments")).isFalse();
        assertThat(partner.post("/api/v2/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);

        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("payment_list").path(0).path("status").asText()).isEqualTo("succeeded");

        Answer statusInV1 = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(statusInV1.session().path("acquiring_payments").path(0).path("status").asText())
                .isEqualTo("succeeded");
    }

    @ParameterizedTest
    @CsvSource({
            "4000000000000002, declined_by_issuer_bank",
            "4000000000009995, insufficient_funds",
            "4000000000000069, bank_card_expired"})
    void declinedCardFailsThePaymentAndCancelsTheSession(String number, String code) {
        TestPartner partner = registeredPartner("declines");
        String sessionId = readyToConfirm(partner, number);

        Answer confirm = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as("a decline is not an HTTP error").isEqualTo(200);

        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.signatureValid()).isTrue();
        JsonNode session = finished.session();
        assertThat(session.path("status").asText()).isEqualTo("cancelled");
        assertThat(session.path("error").path("code").asText()).isEqualTo("session_cancelled");
        JsonNode payment = session.path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("failed");
        assertThat(payment.path("error").path("code").asText()).isEqualTo(code);
        assertThat(payment.path("error").path("description").asText()).isNotBlank();
        assertThat(payment.has("transaction_info")).isFalse();
        assertThat(partner.post("/api/v1/session/status", sessionRef(sessionId)).session()).isEqualTo(session);
    }

    @Test
    void cancelAfterReadyToConfirmCancelsTheSessionAndTellsThePartner() {
        TestPartner partner = registeredPartner("cancels");
        String sessionId = readyToConfirm(partner, "2200000000000004");

        Answer cancel = partner.post("/api/v1/session/cancel", sessionRef(sessionId));
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(200);
        assertThat(cancel.session().path("status").asText()).isEqualTo("cancelled");
        assertThat(cancel.session().path("error").path("code").asText()).isEqualTo("session_cancelled_by_partner");
        assertThat(cancel.session().has("next_action")).isFalse();
        JsonNode payment = cancel.session().path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("failed");
        assertThat(payment.path("payment_details").path("card").path("brand").asText()).isEqualTo("mir");

        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session()).isEqualTo(cancel.session());

        Answer confirmAfterCancel = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirmAfterCancel.status()).isEqualTo(400);
        assertThat(confirmAfterCancel.errorCode()).isEqualTo("session_wrong_state");
    }

    @Test
    void createThenStartPaysWithDataFromBothRequests() {
        TestPartner partner = registeredPartner("twosteps");
        ObjectNode createBody = cardPayment("4242424242424242", "123");
        createBody.remove("customer");

        Answer create = partner.post("/api/v2/session/create", createBody);
        assertThat(create.status()).as(create.toString()).isEqualTo(200);
        String sessionId = create.session().path("id").asText();
        assertThat(create.session().path("status").asText()).isEqualTo("created");
        assertThat(create.session().has("payment_list")).isFalse();

        Answer startWithoutCustomer = partner.post("/api/v2/session/start/payment", sessionRef(sessionId));
        assertThat(startWithoutCustomer.status()).isEqualTo(400);
        assertThat(startWithoutCustomer.errorCode()).isEqualTo("invalid_request");
        assertThat(startWithoutCustomer.errorDescription()).contains("customer");

        ObjectNode start = sessionRef(sessionId);
        start.putObject("customer").put("reference", "late-customer");
        start.putObject("amount_details").put("amount", "15000").put("currency", "eur");
        Answer started = partner.post("/api/v2/session/start/payment", start);
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        JsonNode payment = started.session().path("payment_list").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("in_progress");
        assertThat(payment.path("amount_details")).isEqualTo(json("{\"amount\":15000,\"currency\":\"eur\"}"));
        assertThat(payment.path("customer").path("reference").asText()).isEqualTo("late-customer");
        assertThat(payment.path("payment_details").path("card").path("last4").asText()).isEqualTo("4242");

        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v2/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        assertThat(finished.session().path("payment_list").path(0).path("amounts").path("fee").path("merchant_fee")
                .path("amount").asLong()).isEqualTo(30 + 375);
    }

    @Test
    void aCreatedSessionCanBeCancelledWithoutAWebhook() {
        TestPartner partner = registeredPartner("createcancel");
        Answer create = partner.post("/api/v1/session/create", "{}");
        String sessionId = create.session().path("id").asText();

        Answer cancel = partner.post("/api/v1/session/cancel", sessionRef(sessionId));
        assertThat(cancel.status()).isEqualTo(200);
        assertThat(cancel.session().path("status").asText()).isEqualTo("cancelled");
        assertThat(cancel.session().has("acquiring_payments")).isFalse();
    }

    @Test
    void operationsInTheWrongStateAreRefusedWithSessionWrongState() {
        TestPartner partner = registeredPartner("wrongstate");
        Answer create = partner.post("/api/v1/session/create", "[]");
        String created = create.session().path("id").asText();
        assertWrongState(partner.post("/api/v1/session/confirm", sessionRef(created)));

        String sessionId = readyToConfirm(partner, "4242424242424242");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        assertWrongState(partner.post("/api/v1/session/confirm", sessionRef(sessionId)));
        assertWrongState(partner.post("/api/v1/session/cancel", sessionRef(sessionId)));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertWrongState(partner.post("/api/v1/session/cancel", sessionRef(sessionId)));
        ObjectNode secondStart = cardPayment("4242424242424242", "123");
        secondStart.put("session_id", sessionId);
        assertWrongState(partner.post("/api/v1/session/start/payment", secondStart));
    }

    @Test
    void requestsWithoutAValidSignatureAreRefusedWith401() {
        TestPartner partner = registeredPartner("signatures");
        TestPartner neighbour = registeredPartner("signatures-neighbour");
        byte[] body = cardPayment("4242424242424242", "123").toString().getBytes(StandardCharsets.UTF_8);
        String path = "/api/v1/session/init/payment";
        String valid = partner.sign(body);

        Map<String, Answer> answers = new java.util.LinkedHashMap<>();
        answers.put("missing", partner.send(path, body, Map.of("X-PARTNER-PROJECT", partner.project())));
        answers.put("empty", partner.send(path, body, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", " ")));
        answers.put("of another body", partner.send(path, body, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", partner.sign("{}".getBytes(StandardCharsets.UTF_8)))));
        answers.put("by another key", partner.send(path, body, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", TestPartner.sign(TestPartner.newKeyPair(), body))));
        answers.put("not Base64", partner.send(path, body, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", "%%% not base64 %%%")));
        answers.put("cut short", partner.send(path, body, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", valid.substring(0, valid.length() - 8))));
        byte[] reformatted = cardPayment("4242424242424242", "123").toPrettyString().getBytes(StandardCharsets.UTF_8);
        answers.put("of the body before re-serialization", partner.send(path, reformatted, Map.of(
                "X-PARTNER-PROJECT", partner.project(), "X-PARTNER-SIGN", valid)));
        byte[] withNewline = (new String(body, StandardCharsets.UTF_8) + "\n").getBytes(StandardCharsets.UTF_8);
        answers.put("of the body without its trailing newline", partner.send(path, withNewline, Map.of(
                "X-PARTNER-PROJECT", partner.project(), "X-PARTNER-SIGN", valid)));
        answers.put("valid, with another project's header", partner.send(path, body, Map.of(
                "X-PARTNER-PROJECT", neighbour.project(), "X-PARTNER-SIGN", valid)));

        answers.forEach((name, answer) -> {
            assertThat(answer.status()).as(name + ": " + answer).isEqualTo(401);
            assertThat(answer.errorCode()).as(name).isEqualTo("authentication_error");
            assertThat(answer.body().path("status").asText()).isEqualTo("error");
            assertThat(answer.headers().firstValue("X-Request-Id")).as(name).hasValueSatisfying(id ->
                    assertThat(id).matches("req_[0-9a-f]{32}"));
        });
        assertThat(partner.send(path, body, Map.of("X-PARTNER-PROJECT", partner.project(), "X-PARTNER-SIGN", valid))
                .status()).as("the same request, correctly signed").isEqualTo(200);
    }

    @Test
    void aBodyThatIsNotDeclaredAsJsonIsRefusedWith415AfterItsSignature() {
        TestPartner partner = registeredPartner("content-types");
        String sessionId = partner.post("/api/v1/session/create", "{}").session().path("id").asText();
        byte[] body = sessionRef(sessionId).toString().getBytes(StandardCharsets.UTF_8);
        String path = "/api/v1/session/status";

        for (String type : new String[]{"text/plain", "application/x-www-form-urlencoded", "application/xml",
                "application/json; charset=iso-8859-1", "application/json; charset=utf-16", "not a media type"}) {
            Answer answer = withContentType(partner, path, body, type, partner.sign(body));
            assertThat(answer.status()).as(type + ": " + answer).isEqualTo(415);
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
            assertThat(answer.errorDescription()).contains("Content-Type");
            assertThat(withContentType(partner, path, body, type, "bad").status())
                    .as("the signature is checked first").isEqualTo(401);
        }
        for (String type : new String[]{"application/json", "application/json; charset=utf-8",
                "Application/JSON;charset=\"UTF-8\"", ""}) {
            Answer answer = withContentType(partner, path, body, type, partner.sign(body));
            assertThat(answer.status()).as("'" + type + "': " + answer).isEqualTo(200);
        }
        byte[] empty = new byte[0];
        Answer withoutBody = withContentType(partner, path, empty, "text/plain", partner.sign(empty));
        assertThat(withoutBody.status()).as("a request without a body has no type to check").isEqualTo(400);
        assertThat(withoutBody.errorDescription()).isEqualTo("session_id is required");
    }

    @Test
    void requestsThatTomcatRefusesItselfAreAnsweredInTheErrorShapeToo() {
        TestPartner partner = registeredPartner("tomcat");
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        Answer hugeHeader = partner.send("/api/v1/session/status", body, Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", "A".repeat(9 * 1024)));
        Answer badEscape = partner.send("/api/v1/session/st%C0%AFatus", body, Map.of("X-PARTNER-PROJECT",
                partner.project(), "X-PARTNER-SIGN", partner.sign(body)));
        for (Answer answer : new Answer[]{hugeHeader, badEscape}) {
            assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
            assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                    assertThat(type).startsWith("application/json"));
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
        }
    }

    private Answer withContentType(TestPartner partner, String path, byte[] body, String type, String signature) {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(baseUrl() + path))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body))
                .header("X-PARTNER-PROJECT", partner.project())
                .header("X-PARTNER-SIGN", signature);
        if (!type.isEmpty()) {
            request.header("Content-Type", type);
        }
        return TestPartner.exchange(request.build());
    }

    @Test
    void unknownProjectsAndOtherProjectsSessionsAreRefusedWith403() {
        TestPartner owner = registeredPartner("owner");
        TestPartner other = registeredPartner("other");
        TestPartner unknown = new TestPartner("never-registered").at(baseUrl());

        Answer unknownProject = unknown.post("/api/v1/session/create", "{}");
        assertThat(unknownProject.status()).isEqualTo(403);
        assertThat(unknownProject.errorCode()).isEqualTo("authorization_error");
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        Answer noProject = owner.send("/api/v1/session/create", body, Map.of("X-PARTNER-SIGN", owner.sign(body)));
        assertThat(noProject.status()).isEqualTo(403);

        String sessionId = owner.post("/api/v1/session/create", "{}").session().path("id").asText();
        for (String method : new String[]{"status", "confirm", "cancel"}) {
            Answer answer = other.post("/api/v1/session/" + method, sessionRef(sessionId));
            assertThat(answer.status()).as(method + ": " + answer).isEqualTo(403);
            assertThat(answer.errorCode()).isEqualTo("authorization_error");
        }
        assertThat(owner.post("/api/v1/session/status", sessionRef(sessionId)).session().path("status").asText())
                .as("the other project changed nothing").isEqualTo("created");
    }

    @Test
    void unknownSessionsAreNotFound() {
        TestPartner partner = registeredPartner("notfound");
        for (String id : new String[]{"ps_987654321", "garbage", "ps_0"}) {
            for (String method : new String[]{"status", "confirm", "cancel"}) {
                Answer answer = partner.post("/api/v2/session/" + method, sessionRef(id));
                assertThat(answer.status()).as(id + " " + method).isEqualTo(404);
                assertThat(answer.errorCode()).isEqualTo("session_not_found");
            }
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "amount_details                                     | amount_details",
            "amount                                             | amount_details.amount",
            "currency                                           | amount_details.currency",
            "customer                                           | customer",
            "payment_details                                    | payment_details"})
    void aMissingRequiredFieldIsAnInvalidRequestNamingIt(String field, String named) {
        TestPartner partner = registeredPartner("validation");
        ObjectNode body = cardPayment("4242424242424242", "123");
        switch (field) {
            case "amount" -> ((ObjectNode) body.get("amount_details")).remove("amount");
            case "currency" -> ((ObjectNode) body.get("amount_details")).remove("currency");
            default -> body.remove(field);
        }
        Answer answer = partner.post("/api/v1/session/init/payment", body);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("invalid_request");
        assertThat(answer.errorDescription()).contains(named);
    }

    @Test
    void malformedValuesAreInvalidRequestsAndNeverServerErrors() {
        TestPartner partner = registeredPartner("malformed");
        String[][] cases = {
                {"{\"amount_details\":{\"amount\":\"100.50\",\"currency\":\"rub\"}}", "amount_details.amount"},
                {"{\"amount_details\":{\"amount\":0,\"currency\":\"rub\"}}", "amount_details.amount"},
                {"{\"amount_details\":{\"amount\":-1,\"currency\":\"rub\"}}", "amount_details.amount"},
                {"{\"amount_details\":{\"amount\":1e3,\"currency\":\"rub\"}}", "amount_details.amount"},
                {"{\"amount_details\":{\"amount\":100,\"currency\":\"XYZW\"}}", "amount_details.currency"},
                {"{\"amount_details\":{\"amount\":100,\"currency\":\"QQQ\"}}", "amount_details.currency"},
                {"{\"metadata\":42}", "metadata"},
                {"{\"customer\":\"bob\"}", "customer"},
                {"{\"payment_details\":{\"type\":\"card\",\"card\":{\"type\":\"bank_card\",\"bank_card\":{\"number\":\"4242\"}}}}",
                        "payment_details.card.bank_card.number"},
                {"{\"payment_details\":{\"type\":\"teleport\"}}", "payment_details.type"},
                {"{\"customer\":{\"reference\":\"c\",\"contacts\":[{\"email\":\"no-at-sign\"}]}}", "customer.contacts[0].email"},
                {"{\"customer\":{\"reference\":\"c\",\"contacts\":[{\"phone\":\"12-34\"}]}}", "customer.contacts[0].phone"},
                {"{\"participant_details\":{\"sender\":{\"ipv4\":\"300.1.2.3\"}}}", "participant_details.sender.ipv4"},
                {"{\"participant_details\":{\"sender\":{\"country_iso3\":\"RU\"}}}", "participant_details.sender.country_iso3"},
                {"{\"payment_options\":{\"description\":42}}", "payment_options.description"},
                {"{\"payment_options\":{\"platform_details\":{\"os\":[]}}}", "payment_options.platform_details.os"},
                {"{\"metadata\":\"a\\u0000b\"}", "metadata"},
                {"{\"metadata\":{\"n\":1e400}}", "metadata.n"},
                {"{\"session_id\": ", "not valid JSON"},
                {"{\"a\":1,\"a\":2}", "Duplicate field"},
                {"[1,2]", "JSON object"},
        };
        for (String[] testCase : cases) {
            Answer answer = partner.post("/api/v1/session/create", testCase[0]);
            assertThat(answer.status()).as(testCase[0] + " -> " + answer).isEqualTo(400);
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
            assertThat(answer.errorDescription()).contains(testCase[1]);
        }
        Answer missingSessionId = partner.post("/api/v1/session/status", "[]");
        assertThat(missingSessionId.status()).isEqualTo(400);
        assertThat(missingSessionId.errorDescription()).contains("session_id");
    }

    @Test
    void aCardNumberThatFailsTheLuhnCheckDoesNotExist() {
        TestPartner partner = registeredPartner("luhn");
        Answer answer = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424241", "123"));
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("card_number_does_not_exist");
        assertThat(answer.text()).doesNotContain("4242424242424241");
    }

    @Test
    void anOversizedBodyIsRefusedWith413() {
        TestPartner partner = registeredPartner("big");
        String big = "{\"metadata\":\"" + "x".repeat(70 * 1024) + "\"}";
        Answer answer = partner.post("/api/v1/session/create", big);
        assertThat(answer.status()).isEqualTo(413);
        assertThat(answer.errorCode()).isEqualTo("invalid_request");
    }

    @Test
    void adminApiRegistersPartnersOnlyWithTheAdminToken() {
        TestPartner partner = new TestPartner("admin-check-" + System.nanoTime());
        String body = "{\"project\":\"" + partner.project() + "\",\"public_key\":"
                + quoted(partner.publicKeyPem()) + ",\"webhook_url\":\"https://partner.example/hooks\"}";

        Answer withoutToken = admin("POST", "/admin/v1/partners", body, null);
        assertThat(withoutToken.status()).isEqualTo(401);
        assertThat(withoutToken.errorCode()).isEqualTo("authentication_error");
        assertThat(admin("POST", "/admin/v1/partners", body, "wrong-token-0123456789").status()).isEqualTo(401);

        Answer registered = admin("POST", "/admin/v1/partners", body, TestServiceProperties.ADMIN_TOKEN);
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        assertThat(registered.body().path("partner").path("capture_mode").asText()).isEqualTo("auto");
        assertThat(registered.body().path("service_public_key").asText()).startsWith("-----BEGIN PUBLIC KEY-----");

        Answer again = admin("POST", "/admin/v1/partners", body, TestServiceProperties.ADMIN_TOKEN);
        assertThat(again.status()).isEqualTo(400);
        assertThat(again.errorDescription()).contains("already registered");

        Answer updated = admin("PUT", "/admin/v1/partners/" + partner.project(),
                "{\"capture_mode\":\"delayed\",\"fees\":{\"percent_bp\":100,\"fixed\":5}}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(updated.body().path("partner").path("capture_mode").asText()).isEqualTo("delayed");
        assertThat(updated.body().path("partner").path("webhook_url").asText()).isEqualTo("https://partner.example/hooks");

        String weakKey = "{\"project\":\"weak-key\",\"public_key\":\"-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----\","
                + "\"webhook_url\":\"https://partner.example/hooks\"}";
        Answer refused = admin("POST", "/admin/v1/partners", weakKey, TestServiceProperties.ADMIN_TOKEN);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.errorDescription()).contains("public_key");
    }

    @Test
    void everyWebhookSentSoFarCarriesAValidSignatureAndAStableId() {
        TestPartner partner = registeredPartner("signedhooks");
        String sessionId = readyToConfirm(partner, "4242424242424242");
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);

        assertThat(WEBHOOKS.all()).isNotEmpty().allSatisfy(webhook -> {
            assertThat(webhook.signatureValid()).as(webhook.rawBody()).isTrue();
            assertThat(webhook.webhookId()).isNotBlank();
            // the receiver is shared by every end-to-end class; the 3-D Secure browser test adds action_required
            assertThat(Set.of("ready_to_confirm", "action_required", "ready_to_capture", "payment_finished",
                    "payment_refunded")).as("the five webhook types of the spec").contains(webhook.type());
        });
    }

    private String readyToConfirm(TestPartner partner, String cardNumber) {
        Answer init = partner.post("/api/v1/session/init/payment", cardPayment(cardNumber, "123"));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        return sessionId;
    }

    private static void assertWrongState(Answer answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("session_wrong_state");
    }

    private static JsonNode json(String text) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String quoted(String text) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(text).toString();
    }
}
