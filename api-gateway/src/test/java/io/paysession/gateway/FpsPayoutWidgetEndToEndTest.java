package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.HeadlessChromium;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The instant-payment payout widget ({@code fps_no_account_widget}): the partner creates a payout session to the
 * instant-payment system without the payee's phone and bank, and the payee gives them on the service's page; the
 * partner confirms on {@code ready_to_confirm}. Over plain HTTP as the page calls it, and in a real browser.
 */
class FpsPayoutWidgetEndToEndTest extends EndToEndTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final AtomicInteger ORDERS = new AtomicInteger();
    private static HeadlessChromium browser;

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void thePayeeGivesPhoneAndBankAndThePartnerConfirmsThePayout() {
        TestPartner partner = registeredPartner("fps-widget");
        String sessionId = createdPayout(partner, "v2");
        String token = widgetToken(partner, sessionId);

        JsonNode form = call("GET", token, null).body();
        assertThat(form.path("state").asText()).isEqualTo("form");
        assertThat(form.path("amount_details")).hasToString("{\"amount\":5000,\"currency\":\"rub\"}");
        assertThat(form.path("banks").toString()).contains("100000000069");

        assertThat(call("POST", token, "{\"phone\":\"7926\",\"bank_id\":\"100000000069\"}").errorDescription())
                .contains("phone must be 10 to 15 digits");
        assertThat(call("POST", token, "{\"phone\":\"79261234567\",\"bank_id\":\"999\"}").errorDescription())
                .contains("bank_id is not a bank");
        Answer started = call("POST", token, "{\"phone\":\"+79261234567\",\"bank_id\":\"100000000069\"}");
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        assertThat(started.body().path("state").asText()).isEqualTo("processing");
        assertThat(call("POST", token, "{\"phone\":\"79261234567\",\"bank_id\":\"100000000069\"}").errorCode())
                .isEqualTo("session_wrong_state");

        JsonNode ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT).session();
        JsonNode fps = ready.path("payout_list").path(0).path("payout_details").path("bank_account");
        assertThat(fps.path("system_type").asText()).isEqualTo("faster_payment_system");
        assertThat(fps.path("faster_payment_system").path("phone").asText()).isEqualTo("79261234567");
        assertThat(fps.path("faster_payment_system").path("bank_id").asText()).isEqualTo("100000000069");
        partner.post("/api/v2/session/confirm", sessionRef(sessionId));
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
        assertThat(call("GET", token, null).body().path("state").asText()).isEqualTo("succeeded");
    }

    @Test
    void aTokenIsIssuedOnlyForACreatedInstantPaymentPayoutWithoutItsPayee() {
        TestPartner partner = registeredPartner("fps-widget-issue");
        String card = partner.post("/api/v1/session/create", "{\"amount_details\":{\"amount\":100,\"currency\":\"rub\"},"
                + "\"customer\":{\"reference\":\"c\"}}").session().path("id").asText();
        assertThat(partner.post("/api/v1/token", "{\"fps_no_account_widget\":{\"session_id\":\"" + card + "\"}}")
                .errorDescription()).contains("faster_payment_system, without the payee's phone and bank");
        assertThat(partner.post("/api/v1/token", "{\"fps_no_account_widget\":{}}").errorDescription())
                .contains("fps_no_account_widget.session_id is required");
        String payout = createdPayout(partner, "v1");
        assertThat(registeredPartner("fps-stranger").post("/api/v1/token", "{\"fps_no_account_widget\":{\"session_id\":\""
                + payout + "\"}}").errorCode()).isEqualTo("authorization_error");
        assertThat(partner.post("/api/v1/session/start/payout", "{\"session_id\":\"" + payout + "\"}").errorCode())
                .as("the payee's details are still missing").isEqualTo("invalid_request");
    }

    @Test
    void inABrowserThePayeePicksTheirBankAndAnUnknownPhoneFailsThePayout() {
        browser = browser == null ? HeadlessChromium.start() : browser;
        TestPartner partner = registeredPartner("fps-widget-browser");
        String paid = createdPayout(partner, "v1");
        WebDriver page = browser.driver();
        page.get(baseUrl() + "/widget/payout#" + widgetToken(partner, paid));
        browser.waitUpTo(WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("payout-phone")));
        assertThat(page.findElement(By.id("payout-amount")).getText()).isEqualTo("50.00 RUB");
        new Select(page.findElement(By.id("payout-bank"))).selectByValue("100000000069");
        page.findElement(By.id("payout-phone")).sendKeys("7926 123-45-67");
        browser.screenshot("fps-payout-widget");
        page.findElement(By.id("payout-submit")).click();
        WEBHOOKS.await(paid, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v1/session/confirm", sessionRef(paid));
        browser.waitUpTo(WAIT).until(ExpectedConditions.attributeToBe(By.id("payout-status"), "data-state", "succeeded"));

        String unknown = createdPayout(partner, "v1");
        page.get(baseUrl() + "/widget/payout#" + widgetToken(partner, unknown));
        browser.waitUpTo(WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("payout-phone")));
        page.findElement(By.id("payout-phone")).sendKeys("79260000000");
        page.findElement(By.id("payout-submit")).click();
        org.awaitility.Awaitility.await().atMost(WEBHOOK_WAIT).until(() -> !WEBHOOKS.forSession(unknown).isEmpty());
        if (WEBHOOKS.forSession(unknown).stream().anyMatch(webhook -> webhook.type().equals("ready_to_confirm"))) {
            partner.post("/api/v1/session/confirm", sessionRef(unknown));
        }
        browser.waitUpTo(WAIT).until(ExpectedConditions.attributeToBe(By.id("payout-status"), "data-state", "failed"));
        assertThat(page.findElement(By.id("payout-status")).getAttribute("data-error-code"))
                .isEqualTo("account_not_found");
    }

    private String createdPayout(TestPartner partner, String version) {
        String details = version.equals("v1") ? "payment_method" : "payout_details";
        Answer created = partner.post("/api/" + version + "/session/create", "{\"" + details + "\":{\"type\":"
                + "\"bank_account\",\"bank_account\":{\"system_type\":\"faster_payment_system\"}},\"amount_details\":"
                + "{\"amount\":5000,\"currency\":\"rub\"},\"participant_details\":{\"recipient\":{\"first_name\":\"Anna\","
                + "\"last_name\":\"Smirnova\"}},\"metadata\":\"payout " + ORDERS.incrementAndGet() + "\"}");
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return created.session().path("id").asText();
    }

    private static String widgetToken(TestPartner partner, String sessionId) {
        Answer issued = partner.post("/api/v1/token", "{\"fps_no_account_widget\":{\"session_id\":\"" + sessionId + "\"}}");
        assertThat(issued.status()).as(issued.toString()).isEqualTo(200);
        return issued.body().path("public_token").asText();
    }

    private Answer call(String method, String token, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + (method.equals("GET")
                ? "/cds/v1/fps-payout/session" : "/cds/v1/fps-payout/start"))).header("X-PUBLIC-TOKEN", token);
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        return TestPartner.exchange(request.build());
    }
}
