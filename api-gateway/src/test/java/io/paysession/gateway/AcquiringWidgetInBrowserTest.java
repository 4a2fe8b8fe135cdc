package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.HeadlessChromium;
import io.paysession.gateway.support.PartnerSite;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The acquiring widget in a real browser: the partner sends the payer to the service's hosted payment form
 * ({@code /widget/pay#<public token>}); the payer types the card there (the partner never sees it), ticks the
 * recurrent box when the partner shows it, passes 3-D Secure on the service's page and comes back to the form, and
 * is sent to the partner's success or failure address. The partner confirms on {@code ready_to_confirm}, as for any
 * payment.
 */
class AcquiringWidgetInBrowserTest extends EndToEndTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final AtomicInteger ORDERS = new AtomicInteger();

    private static HeadlessChromium browser;
    private static PartnerSite site;

    @BeforeEach
    void startBrowserAndPartnerSite() {
        if (browser == null) {
            browser = HeadlessChromium.start();
        }
        if (site == null) {
            site = new PartnerSite();
        }
        site.serve("/paid", "text/html; charset=utf-8", "<!DOCTYPE html><title>Paid</title><h1 id=\"shop\">Thank you</h1>")
                .serve("/failed", "text/html; charset=utf-8", "<!DOCTYPE html><title>Failed</title><h1 id=\"shop\">Sorry</h1>");
    }

    @AfterAll
    static void stopBrowserAndPartnerSite() {
        if (browser != null) {
            browser.close();
        }
        if (site != null) {
            site.close();
        }
    }

    @Test
    void thePayerPaysWithACardSavesItForLaterAndIsSentToTheSuccessAddress() {
        TestPartner partner = registeredPartner("acq-browser");
        String sessionId = createdSession(partner);
        open(widgetToken(partner, sessionId, true));

        assertThat(driver().findElement(By.id("pay-amount")).getText()).isEqualTo("150.00 RUB");
        assertThat(driver().findElement(By.id("recurrent-row")).isDisplayed()).isTrue();
        assertThat(driver().getCurrentUrl()).as("the token leaves the address").doesNotContain("#");
        browser.screenshot("acquiring-widget-form");
        typeCard("4242 4242 4242 4242", "12/34", "123");
        driver().findElement(By.id("card-recurrent")).click();
        driver().findElement(By.id("pay-submit")).click();
        browser.waitUpTo(WAIT).until(ExpectedConditions.attributeToBe(By.id("pay-status"), "data-state", "processing"));
        assertThat(driver().findElement(By.id("card-number")).getAttribute("value")).as("the number leaves the form")
                .isEmpty();

        confirmWhenReady(partner, sessionId);
        browser.waitUpTo(WAIT).until(ExpectedConditions.urlToBe(site.origin() + "/paid"));
        assertThat(driver().findElement(By.id("shop")).getText()).isEqualTo("Thank you");

        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(finished.path("status").asText()).isEqualTo("accepted");
        JsonNode payment = finished.path("acquiring_payments").path(0);
        assertThat(payment.path("payment_details").path("card").path("last4").asText()).isEqualTo("4242");
        assertThat(payment.path("recurrent").path("is_active").asBoolean(false)).as("the payer saved the card").isTrue();
    }

    @Test
    void thePayerPassesThreeDSecureOnTheServicesPageAndComesBackToTheFormThenToTheShop() {
        TestPartner partner = registeredPartner("acq-3ds");
        String sessionId = createdSession(partner);
        open(widgetToken(partner, sessionId, false));
        assertThat(driver().findElement(By.id("recurrent-row")).isDisplayed()).as("the partner did not ask for it")
                .isFalse();

        typeCard("4000000000003220", "12/34", "123");
        driver().findElement(By.id("pay-submit")).click();
        confirmWhenReady(partner, sessionId);

        browser.waitUpTo(WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("approve")));
        assertThat(driver().getTitle()).contains("3-D Secure");
        browser.screenshot("acquiring-widget-3ds");
        driver().findElement(By.id("approve")).click();
        browser.waitUpTo(WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("return")));
        driver().findElement(By.id("return")).click();

        browser.waitUpTo(WAIT).until(ExpectedConditions.urlToBe(site.origin() + "/paid"));
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
    }

    @Test
    void aDeclinedCardSendsThePayerToTheFailureAddress() {
        TestPartner partner = registeredPartner("acq-decline");
        String sessionId = createdSession(partner);
        open(widgetToken(partner, sessionId, false));

        typeCard("4242 4242 4242 4241", "12/34", "123");
        driver().findElement(By.id("pay-submit")).click();
        assertThat(driver().findElement(By.id("pay-error")).getText()).as("the form checks the number first")
                .isEqualTo("No card has this number.");
        driver().findElement(By.id("card-number")).clear();
        typeCard("4000 0000 0000 0002", "", "");
        driver().findElement(By.id("pay-submit")).click();
        confirmWhenReady(partner, sessionId);

        browser.waitUpTo(WAIT).until(ExpectedConditions.urlToBe(site.origin() + "/failed"));
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("declined_by_issuer_bank");
    }

    private WebDriver driver() {
        return browser.driver();
    }

    private void open(String token) {
        driver().get(baseUrl() + "/widget/pay#" + token);
        browser.waitUpTo(WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("card-number")));
    }

    private void typeCard(String number, String expiry, String code) {
        driver().findElement(By.id("card-number")).sendKeys(number);
        if (!expiry.isEmpty()) {
            driver().findElement(By.id("card-expiry")).sendKeys(expiry);
            driver().findElement(By.id("card-cvc")).sendKeys(code);
        }
    }

    private void confirmWhenReady(TestPartner partner, String sessionId) {
        try {
            WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        } catch (AssertionError none) {
            throw new AssertionError(none.getMessage() + "; the form says: " + driver().findElement(By.id("pay-error"))
                    .getText() + " / " + driver().findElement(By.id("pay-status")).getText(), none);
        }
        Answer confirmed = partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
    }

    private String createdSession(TestPartner partner) {
        ObjectNode create = JsonNodeFactory.instance.objectNode();
        create.putObject("amount_details").put("amount", 15_000).put("currency", "rub");
        create.putObject("customer").put("reference", "browser-customer");
        create.put("metadata", "browser order " + ORDERS.incrementAndGet());
        return partner.post("/api/v1/session/create", create).session().path("id").asText();
    }

    private String widgetToken(TestPartner partner, String sessionId, boolean checkbox) {
        Answer issued = partner.post("/api/v1/token", "{\"acquiring_widget\":{\"session_id\":\"" + sessionId
                + "\",\"success_return_url\":\"" + site.origin() + "/paid\",\"failure_return_url\":\"" + site.origin()
                + "/failed\",\"show_recurrent_checkbox\":" + checkbox + "}}");
        assertThat(issued.status()).as(issued.toString()).isEqualTo(200);
        return issued.body().path("public_token").asText();
    }
}
