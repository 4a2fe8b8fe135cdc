package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.HeadlessChromium;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's dashboard (docs/dashboard.md) in a real browser: sign in with the admin token, find a session by
 * its id, open its timeline, step back to an earlier state, send a webhook again and see its new attempt, sign
 * out; a wrong token and a form without its CSRF token refused. Screenshots of each page in
 * {@code target/screenshots/}.
 */
class DashboardInBrowserTest extends EndToEndTestBase {

    private static final Duration PAGE_WAIT = Duration.ofSeconds(20);

    private static HeadlessChromium browser;

    @BeforeEach
    void startBrowser() {
        if (browser == null) {
            browser = HeadlessChromium.start();
        }
    }

    @AfterAll
    static void quitBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void anOperatorFindsASessionStepsThroughItsHistoryAndSendsAWebhookAgain() {
        TestPartner partner = registeredPartner("dashboard");
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123").put("metadata", "dashboard " + System.nanoTime()));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        WebDriver page = browser.driver();

        page.get(baseUrl() + "/dashboard");
        assertThat(page.getCurrentUrl()).endsWith("/dashboard/sign-in");
        page.findElement(By.id("token")).sendKeys("not-the-token");
        page.findElement(By.id("sign-in")).click();
        assertThat(page.findElement(By.id("error")).getText()).contains("not the admin token");
        browser.screenshot("dashboard-sign-in-refused");

        page.findElement(By.id("token")).sendKeys(TestServiceProperties.ADMIN_TOKEN);
        page.findElement(By.id("sign-in")).click();
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("sessions")));
        assertThat(page.getCurrentUrl()).endsWith("/dashboard/sessions");
        assertThat(page.findElements(By.cssSelector("#sessions tbody tr"))).isNotEmpty();
        browser.screenshot("dashboard-sessions");

        page.findElement(By.id("filter-id")).sendKeys(sessionId);
        page.findElement(By.id("search")).click();
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlContains("id=" + sessionId));
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("sessions")));
        List<WebElement> rows = page.findElements(By.cssSelector("#sessions tbody tr"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getText()).contains(sessionId, partner.project(), "accepted", "payment:card",
                "100.00 RUB");
        rows.get(0).findElement(By.linkText(sessionId)).click();
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlContains("/dashboard/sessions/" + sessionId));

        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("timeline")));
        assertThat(page.findElement(By.id("session-status")).getText()).isEqualTo("accepted");
        String timeline = page.findElement(By.id("timeline")).getText();
        assertThat(timeline).contains("SessionCreatedEvent", "PaymentSucceededEvent", "POST /api/v1/session/init/payment",
                "POST /api/v1/session/confirm");
        assertThat(page.findElement(By.id("view")).getText()).contains("\"status\" : \"accepted\"")
                .doesNotContain("4242424242424242");
        browser.screenshot("dashboard-session");

        page.findElements(By.cssSelector("#timeline .as-it-was")).get(0).click();
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlContains("position="));
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("step")));
        assertThat(page.findElement(By.id("view")).getText()).as("after SessionCreatedEvent")
                .contains("\"status\" : \"created\"").doesNotContain("acquiring_payments");
        assertThat(page.findElements(By.id("step-back"))).as("the first event has nothing before it").isEmpty();
        browser.screenshot("dashboard-session-as-it-was");
        page.findElement(By.id("step-forward")).click();
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("step-back")));
        page.findElement(By.id("step-now")).click();
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.not(ExpectedConditions.urlContains("position=")));

        WebElement finished = webhook(page, "payment_finished");
        int attemptsBefore = finished.findElements(By.cssSelector(".attempts tbody tr")).size();
        int deliveriesBefore = WEBHOOKS.forSession(sessionId).size();
        finished.findElement(By.cssSelector("button.resend")).click();
        browser.waitUpTo(PAGE_WAIT).until(driver -> {
            driver.navigate().refresh();
            return webhook(driver, "payment_finished").findElements(By.cssSelector(".attempts tbody tr")).size()
                    > attemptsBefore;
        });
        assertThat(WEBHOOKS.forSession(sessionId)).as("the partner received it again").hasSizeGreaterThan(deliveriesBefore);
        assertThat(webhook(page, "payment_finished").getText()).contains("resend 1");
        browser.screenshot("dashboard-webhook-sent-again");

        page.findElement(By.id("sign-out")).click();
        browser.waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlMatches(".*/dashboard/sign-in$"));
        page.get(baseUrl() + "/dashboard/sessions");
        assertThat(page.getCurrentUrl()).as("signed out").endsWith("/dashboard/sign-in");
    }

    @Test
    void theCookieIsHttpOnlyAndStrictAndAnActionWithoutTheCsrfTokenIsRefused() {
        Answer signIn = form("/dashboard/sign-in", "token=" + encode(TestServiceProperties.ADMIN_TOKEN), null);
        assertThat(signIn.status()).isEqualTo(303);
        String setCookie = signIn.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).contains("payments_dashboard=", "HttpOnly", "SameSite=Strict", "Path=/dashboard",
                "Max-Age=1800");
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));

        Answer sessions = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/dashboard/sessions"))
                .header("Cookie", cookie).GET().build());
        assertThat(sessions.status()).isEqualTo(200);
        assertThat(sessions.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                assertThat(policy).contains("default-src 'none'", "form-action 'self'", "frame-ancestors 'none'"));
        String csrf = sessions.text().replaceAll("(?s).*name=\"csrf\" value=\"([^\"]+)\".*", "$1");
        assertThat(csrf).matches("[A-Za-z0-9_-]{43}");

        String resend = "/dashboard/sessions/ps_1/webhooks/00000000-0000-0000-0000-000000000000/resend";
        assertThat(form(resend, "", cookie).status()).as("no CSRF token").isEqualTo(403);
        assertThat(form(resend, "csrf=" + "A".repeat(43), cookie).status()).as("another CSRF token").isEqualTo(403);
        assertThat(form(resend, "csrf=" + csrf, null).status()).as("no cookie").isEqualTo(403);
        assertThat(form(resend, "csrf=" + csrf, cookie).status()).as("a webhook the session does not have")
                .isEqualTo(404);
        assertThat(form("/dashboard/sign-out", "csrf=" + "B".repeat(43), cookie).status()).isEqualTo(403);

        assertThat(form("/dashboard/sign-out", "csrf=" + csrf, cookie).status()).isEqualTo(303);
        Answer after = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/dashboard/sessions"))
                .header("Cookie", cookie).GET().build());
        assertThat(after.status()).as("the cookie ends with the sign-out").isEqualTo(303);
        assertThat(after.headers().firstValue("Location")).hasValue("/dashboard/sign-in");

        assertThat(form("/dashboard/sign-in", "token=wrong", null).status()).isEqualTo(401);
    }

    private static WebElement webhook(WebDriver page, String type) {
        return page.findElements(By.cssSelector(".webhook")).stream()
                .filter(element -> element.findElement(By.tagName("h3")).getText().startsWith(type))
                .findFirst().orElseThrow(() -> new AssertionError("no " + type + " webhook on the page"));
    }

    private Answer form(String path, String body, String cookie) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return TestPartner.exchange(request.build());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
