package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.OneBrowser;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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
 * its id, open its timeline, step back to an earlier state, send a webhook again and see its new attempt, the
 * partner's webhook health and its chart, its reconciliation report with the verdict and its chart, the live chart
 * updating itself as a session starts, sign out; a wrong token and a form without its CSRF token refused. Screenshots of each page in
 * {@code target/screenshots/}.
 */
class DashboardInBrowserTest extends EndToEndTestBase {

    private static final Duration PAGE_WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final OneBrowser BROWSER = new OneBrowser();

    @Test
    void anOperatorFindsASessionStepsThroughItsHistoryAndSendsAWebhookAgain() {
        TestPartner partner = registeredPartner("dashboard");
        String body = cardPayment("4242424242424242", "123")
                .put("metadata", "dashboard " + java.util.UUID.randomUUID()).toString();
        String key = "order-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        Answer init = partner.post("/api/v1/session/init/payment", body, key);
        assertThat(init.status()).isEqualTo(200);
        Answer retried = partner.post("/api/v1/session/init/payment", body, key);
        assertThat(retried.headers().firstValue("X-PARTNER-IDEMPOTENT-REPLAY")).hasValue("true");
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        WebDriver page = BROWSER.get().driver();

        page.get(baseUrl() + "/dashboard");
        assertThat(page.getCurrentUrl()).endsWith("/dashboard/sign-in");
        page.findElement(By.id("token")).sendKeys("not-the-token");
        page.findElement(By.id("sign-in")).click();
        assertThat(page.findElement(By.id("error")).getText()).contains("not the admin token");
        BROWSER.get().screenshot("dashboard-sign-in-refused");

        page.findElement(By.id("token")).sendKeys(TestServiceProperties.ADMIN_TOKEN);
        page.findElement(By.id("sign-in")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("sessions")));
        assertThat(page.getCurrentUrl()).endsWith("/dashboard/sessions");
        assertThat(page.findElements(By.cssSelector("#sessions tbody tr"))).isNotEmpty();
        BROWSER.get().screenshot("dashboard-sessions");

        page.findElement(By.id("filter-id")).sendKeys(sessionId);
        page.findElement(By.id("search")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlContains("id=" + sessionId));
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("sessions")));
        List<WebElement> rows = page.findElements(By.cssSelector("#sessions tbody tr"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getText()).contains(sessionId, partner.project(), "accepted", "payment:card",
                "100.00 RUB");
        rows.get(0).findElement(By.linkText(sessionId)).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlContains("/dashboard/sessions/" + sessionId));

        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("timeline")));
        assertThat(page.findElement(By.id("session-status")).getText()).isEqualTo("accepted");
        String timeline = page.findElement(By.id("timeline")).getText();
        assertThat(timeline).contains("SessionCreatedEvent", "PaymentSucceededEvent", "POST /api/v1/session/init/payment",
                "POST /api/v1/session/confirm");
        assertThat(timeline).as("the key and its decision beside the request").contains(key + " (first_use)");
        assertThat(page.findElement(By.id("idempotency")).getText()).contains(key, "first_use", "replay");
        assertThat(page.findElement(By.id("view")).getText()).contains("\"status\" : \"accepted\"")
                .doesNotContain("4242424242424242");
        BROWSER.get().screenshot("dashboard-session");

        page.findElements(By.cssSelector("#timeline .as-it-was")).get(0).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlContains("position="));
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("step")));
        assertThat(page.findElement(By.id("view")).getText()).as("after SessionCreatedEvent")
                .contains("\"status\" : \"created\"").doesNotContain("acquiring_payments");
        assertThat(page.findElements(By.id("step-back"))).as("the first event has nothing before it").isEmpty();
        BROWSER.get().screenshot("dashboard-session-as-it-was");
        page.findElement(By.id("step-forward")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("step-back")));
        page.findElement(By.id("step-now")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.not(ExpectedConditions.urlContains("position=")));

        WebElement finished = webhook(page, "payment_finished");
        int attemptsBefore = finished.findElements(By.cssSelector(".attempts tbody tr")).size();
        int deliveriesBefore = WEBHOOKS.forSession(sessionId).size();
        finished.findElement(By.cssSelector("button.resend")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(driver -> {
            driver.navigate().refresh();
            return webhook(driver, "payment_finished").findElements(By.cssSelector(".attempts tbody tr")).size()
                    > attemptsBefore;
        });
        assertThat(WEBHOOKS.forSession(sessionId)).as("the partner received it again").hasSizeGreaterThan(deliveriesBefore);
        assertThat(webhook(page, "payment_finished").getText()).contains("resend 1");
        BROWSER.get().screenshot("dashboard-webhook-sent-again");

        page.findElement(By.linkText("Webhook health")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("health")));
        WebElement partnerHealth = page.findElement(By.cssSelector("#health tr[data-project='" + partner.project() + "']"));
        List<String> cells = partnerHealth.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
        assertThat(cells.get(3)).as("attempts in 24 h: ready_to_confirm, payment_finished and its resend").isEqualTo("3");
        assertThat(cells.get(4)).isEqualTo("100.0 %");
        assertThat(cells.get(5)).endsWith(" ms");
        assertThat(cells.get(8)).as("parked").isEqualTo("0");
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#attempts-chart[data-rendered='true'] canvas")));
        BROWSER.get().screenshot("dashboard-webhook-health");

        page.findElement(By.linkText("Reconciliation")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("report-project")));
        new org.openqa.selenium.support.ui.Select(page.findElement(By.id("report-project")))
                .selectByVisibleText(partner.project());
        page.findElement(By.id("report-show")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlContains("project="));
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.id("report")));
        String report = page.findElement(By.id("report")).getText();
        assertThat(report).contains("RUB", "card", "payment", "100.00", "Total");
        assertThat(page.findElement(By.id("verdict")).getText()).startsWith("Verified");
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#report-chart[data-rendered='true'] canvas")));
        assertThat(page.findElement(By.id("csv")).getAttribute("href")).contains("/dashboard/reconciliation.csv?project="
                + partner.project());
        BROWSER.get().screenshot("dashboard-reconciliation");

        page.findElement(By.linkText("Live")).click();
        WebElement live = BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#live-chart[data-rendered='true']")));
        long startedBefore = Long.parseLong(live.getAttribute("data-total-started"));
        assertThat(startedBefore).as("this test's session, at least, started in the last hour").isPositive();
        Answer another = partner.post("/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123").put("metadata", "live " + java.util.UUID.randomUUID()));
        assertThat(another.status()).as(another.toString()).isEqualTo(200);
        BROWSER.get().waitUpTo(Duration.ofSeconds(30)).until(driver -> Long.parseLong(driver.findElement(By.id("live-chart"))
                .getAttribute("data-total-started")) > startedBefore);
        assertThat(live.getAttribute("data-updated")).as("redrawn from /dashboard/live.json").isNotBlank();
        BROWSER.get().screenshot("dashboard-live");

        page.findElement(By.id("sign-out")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.urlMatches(".*/dashboard/sign-in$"));
        page.get(baseUrl() + "/dashboard/sessions");
        assertThat(page.getCurrentUrl()).as("signed out").endsWith("/dashboard/sign-in");
    }

    @Test
    void theCookieIsHttpOnlyAndStrictAndAnActionWithoutTheCsrfTokenIsRefused() {
        Answer signIn = form("/dashboard/sign-in", "token=" + encode(TestServiceProperties.ADMIN_TOKEN), null);
        assertThat(signIn.status()).isEqualTo(303);
        String setCookie = signIn.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).contains("payments_dashboard=", "HttpOnly", "SameSite=Strict", "Path=/dashboard",
                "Max-Age=43200");
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));

        Answer sessions = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/dashboard/sessions"))
                .header("Cookie", cookie).GET().build());
        assertThat(sessions.status()).isEqualTo(200);
        assertThat(sessions.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                assertThat(policy).contains("default-src 'none'", "form-action 'self'", "frame-ancestors 'none'"));
        String csrf = sessions.text().replaceAll("(?s).*name=\"csrf\" value=\"([^\"]+)\".*", "$1");
        assertThat(csrf).matches("[A-Za-z0-9_-]{43}");

        TestPartner partner = registeredPartner("dashboard-csv");
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123").put("metadata", "csv " + java.util.UUID.randomUUID()));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        String search = "/dashboard/sessions?project=" + partner.project();
        assertThat(page(search + "&status=accepted&method=payment:card", cookie)).contains(sessionId);
        assertThat(page(search + "&method=payout:iban", cookie)).doesNotContain(sessionId).contains("No session matches.");
        assertThat(page(search + "&status=cancelled", cookie)).doesNotContain(sessionId);
        assertThat(page(search + "&from=2000-01-01&to=2000-01-31", cookie)).doesNotContain(sessionId);
        assertThat(page(search + "&status=lost&from=yesterday", cookie)).contains("Unknown status lost.",
                "from must be a date").contains(sessionId);
        String csvPath = "/dashboard/reconciliation.csv?project=" + partner.project();
        Answer csvSignedOut = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + csvPath)).GET().build());
        assertThat(csvSignedOut.status()).isEqualTo(303);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Answer csv = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + csvPath))
                    .header("Cookie", cookie).GET().build());
            assertThat(csv.status()).isEqualTo(200);
            assertThat(csv.headers().firstValue("Content-Type")).hasValue("text/csv;charset=UTF-8");
            assertThat(csv.headers().firstValue("Content-Disposition")).hasValueSatisfying(disposition ->
                    assertThat(disposition).startsWith("attachment; filename=\"reconciliation-" + partner.project()));
            assertThat(csv.text()).startsWith("section,day,currency,method,operation,count,gross,fees,net")
                    .contains("row,", ",rub,card,payment,1,10000,");
        });

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
        Answer json = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/dashboard/sign-in"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"token\":\"" + TestServiceProperties.ADMIN_TOKEN + "\"}"))
                .build());
        assertThat(json.status()).as("a body that is not a form is no token, never a 500").isEqualTo(401);
    }

    private String page(String path, String cookie) {
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .header("Cookie", cookie).GET().build());
        assertThat(answer.status()).as(path).isEqualTo(200);
        return answer.text();
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
