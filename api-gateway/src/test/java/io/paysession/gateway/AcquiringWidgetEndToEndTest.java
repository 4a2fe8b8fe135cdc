package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The acquiring widget's calls over plain HTTP, as its hosted form makes them (the browser test drives the form
 * itself): a token for a created session, the session's state read with it, one payment started with a card, and
 * every refusal, by name.
 */
class AcquiringWidgetEndToEndTest extends EndToEndTestBase {

    private static final String SUCCESS = "https://shop.example/paid";
    private static final String FAILURE = "https://shop.example/failed";
    private static final AtomicInteger ORDERS = new AtomicInteger();

    @Test
    void aPayerPaysACreatedSessionWithACardTheWidgetTookAndThePartnerConfirmsAsUsual() {
        TestPartner partner = registeredPartner("acq-http");
        String sessionId = createdSession(partner, "v1");
        String token = widgetToken(partner, sessionId, true);

        JsonNode form = state(token);
        assertThat(form.path("state").asText()).isEqualTo("form");
        assertThat(form.path("amount_details")).hasToString("{\"amount\":10000,\"currency\":\"rub\"}");
        assertThat(form.path("show_recurrent_checkbox").asBoolean(false)).isTrue();
        assertThat(form.has("return_url")).isFalse();

        Answer paid = pay(token, "4242424242424242", "123", true);
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(paid.body().path("state").asText()).isEqualTo("processing");
        assertThat(paid.text()).doesNotContain("4242424242424242");
        assertThat(pay(token, "4242424242424242", "123", false).errorCode()).as("one payment per token")
                .isEqualTo("session_wrong_state");

        JsonNode ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT).session();
        JsonNode payment = ready.path("acquiring_payments").path(0);
        assertThat(payment.path("payment_details").path("card").path("last4").asText())
                .isEqualTo("4242");
        assertThat(payment.path("customer").path("reference").asText()).as("the session's own data")
                .isEqualTo("widget-customer");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("accepted");
        assertThat(finished.path("acquiring_payments").path(0).path("recurrent").path("token").asText())
                .as("the payer ticked the box").matches("rt_[0-9a-f]{32}");

        JsonNode done = state(token);
        assertThat(done.path("state").asText()).isEqualTo("succeeded");
        assertThat(done.path("return_url").asText()).isEqualTo(SUCCESS);
        assertThat(tokenizeCard(token, "{\"card\":{\"number\":\"4242424242424242\"}}").status())
                .as("the widget's token tokenizes no card").isEqualTo(401);
    }

    @Test
    void aDeclinedCardEndsFailedWithItsCodeAndTheFailureAddress() {
        TestPartner partner = registeredPartner("acq-declined");
        String sessionId = createdSession(partner, "v2");
        String token = widgetToken(partner, sessionId, false);
        assertThat(pay(token, "4000000000000002", "123", true).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v2/session/confirm", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);

        JsonNode failed = state(token);
        assertThat(failed.path("state").asText()).isEqualTo("failed");
        assertThat(failed.path("error_code").asText()).isEqualTo("declined_by_issuer_bank");
        assertThat(failed.path("return_url").asText()).isEqualTo(FAILURE);
    }

    @Test
    void aCardTheServiceRefusesLeavesTheTokenForACorrectedOne() {
        TestPartner partner = registeredPartner("acq-typo");
        String sessionId = createdSession(partner, "v1");
        String token = widgetToken(partner, sessionId, false);
        Answer typo = pay(token, "4242424242424241", "123", false);
        assertThat(typo.status()).isEqualTo(400);
        assertThat(typo.errorCode()).isEqualTo("card_number_does_not_exist");
        assertThat(typo.text()).doesNotContain("4242424242424241");
        Answer noCode = pay(token, "4242424242424242", null, false);
        assertThat(noCode.errorCode()).isEqualTo("invalid_request");
        assertThat(state(token).path("state").asText()).isEqualTo("form");
        assertThat(pay(token, "5555555555554444", "321", false).status()).isEqualTo(200);
    }

    @Test
    void aTokenIsIssuedOnlyForACreatedSessionOfThePartnerWithItsAmountAndCustomer() {
        TestPartner partner = registeredPartner("acq-issue");
        String created = createdSession(partner, "v1");
        assertThat(issue(partner, "{\"acquiring_widget\":{}}").errorDescription())
                .contains("acquiring_widget.session_id is required");
        assertThat(issue(partner, "{\"acquiring_widget\":{\"session_id\":\"ps_999999999\"}}").errorCode())
                .isEqualTo("session_not_found");
        assertThat(issue(registeredPartner("acq-stranger"), "{\"acquiring_widget\":{\"session_id\":\"" + created
                + "\"}}").errorCode()).isEqualTo("authorization_error");
        String bare = partner.post("/api/v1/session/create", "{\"metadata\":\"bare\"}").session().path("id").asText();
        assertThat(issue(partner, "{\"acquiring_widget\":{\"session_id\":\"" + bare + "\"}}").errorDescription())
                .contains("amount_details and customer");
        String started = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123")
                .put("metadata", "started " + ORDERS.incrementAndGet())).session().path("id").asText();
        assertThat(issue(partner, "{\"acquiring_widget\":{\"session_id\":\"" + started + "\"}}").errorCode())
                .isEqualTo("session_wrong_state");
        assertThat(issue(partner, "{\"acquiring_widget\":{\"session_id\":\"" + created
                + "\",\"success_return_url\":\"javascript:alert(1)\"}}").errorDescription())
                .contains("success_return_url must be an absolute http or https address");
        assertThat(issue(partner, "{\"acquiring_widget\":{\"session_id\":\"" + created
                + "\",\"show_recurrent_checkbox\":\"yes\"}}").errorDescription())
                .contains("show_recurrent_checkbox must be true or false");
        assertThat(issue(partner, "{\"acquiring_widget\":{\"session_id\":\"" + created
                + "\"},\"tokenize_widget\":{\"access\":true}}").errorDescription()).contains("one widget");
    }

    @Test
    void theWidgetsCallsWantALiveTokenOfTheWidget() {
        assertThat(exchange("GET", null, null).status()).isEqualTo(401);
        assertThat(exchange("GET", "not-a-token", null).errorCode()).isEqualTo("authentication_error");
        assertThat(exchange("GET", "ab".repeat(32), null).errorCode()).isEqualTo("authentication_error");
        TestPartner partner = registeredPartner("acq-kinds");
        assertThat(exchange("GET", publicToken(partner), null).status())
                .as("a card tokenizer's token is not the acquiring widget's").isEqualTo(401);
        Answer page = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/widget/pay")).GET().build());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElse(""))
                .contains("script-src 'self'").contains("form-action 'none'");
    }

    private String createdSession(TestPartner partner, String version) {
        ObjectNode create = JsonNodeFactory.instance.objectNode();
        create.putObject("amount_details").put("amount", 10_000).put("currency", "rub");
        create.putObject("customer").put("reference", "widget-customer");
        create.put("metadata", "widget order " + ORDERS.incrementAndGet());
        Answer created = partner.post("/api/" + version + "/session/create", create);
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return created.session().path("id").asText();
    }

    private static String widgetToken(TestPartner partner, String sessionId, boolean checkbox) {
        Answer issued = issue(partner, "{\"acquiring_widget\":{\"session_id\":\"" + sessionId
                + "\",\"success_return_url\":\"" + SUCCESS + "\",\"failure_return_url\":\"" + FAILURE
                + "\",\"show_recurrent_checkbox\":" + checkbox + "}}");
        assertThat(issued.status()).as(issued.toString()).isEqualTo(200);
        String token = issued.body().path("public_token").asText();
        assertThat(token).matches("[0-9a-f]{64}");
        return token;
    }

    private static Answer issue(TestPartner partner, String body) {
        return partner.post("/api/v1/token", body);
    }

    private JsonNode state(String token) {
        Answer answer = exchange("GET", token, null);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body();
    }

    private Answer pay(String token, String number, String code, boolean recurrent) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ObjectNode card = body.putObject("card").put("number", number).put("expiration_month", "12")
                .put("expiration_year", "34");
        if (code != null) {
            card.put("security_code", code);
        }
        body.put("recurrent", recurrent);
        return exchange("POST", token, body.toString());
    }

    private Answer exchange(String method, String token, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl()
                + (method.equals("GET") ? "/cds/v1/acquiring/session" : "/cds/v1/acquiring/pay")))
                .timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("X-PUBLIC-TOKEN", token);
        }
        if (body != null) {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.GET();
        }
        return TestPartner.exchange(request.build());
    }
}
