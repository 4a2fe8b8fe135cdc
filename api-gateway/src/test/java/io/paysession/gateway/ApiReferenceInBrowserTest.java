package io.paysession.gateway;

import io.paysession.gateway.support.OneBrowser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API reference at {@code /docs} as a partner's developer sees it, in a real browser: Swagger UI from the
 * service's jar renders the partner document (its calls in both versions, the webhooks) and, chosen in its top
 * bar, the admin document; the page's Content-Security-Policy lets it do so with nothing from another origin.
 * A screenshot of each goes to {@code target/screenshots/}.
 */
class ApiReferenceInBrowserTest extends EndToEndTestBase {

    private static final Duration PAGE_WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final OneBrowser BROWSER = new OneBrowser();

    @Test
    void thePartnerAndTheAdminReferenceAreRendered() {
        WebDriver page = BROWSER.get().driver();
        page.get(baseUrl() + "/docs");

        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".opblock")));
        assertThat(page.findElement(By.cssSelector(".info .title")).getText()).contains("partner API");
        List<String> paths = page.findElements(By.cssSelector(".opblock-summary-path")).stream()
                .map(WebElement::getText).toList();
        assertThat(paths).contains("/api/v1/session/init/payment", "/api/v2/session/init/payment",
                "/api/v2/session/refund", "/cds/v1/tokenize/elements");
        String text = page.findElement(By.tagName("body")).getText();
        assertThat(text).as("the webhooks are shown").contains("Webhooks", "payment_finished", "ready_to_confirm");
        assertThat(page.findElements(By.cssSelector(".try-out__btn"))).as("no Try it out: requests need signatures")
                .isEmpty();
        BROWSER.get().screenshot("api-reference-partner");

        new Select(page.findElement(By.cssSelector(".topbar select"))).selectByVisibleText("Admin API");
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector(".info .title"), "admin API"));
        BROWSER.get().waitUpTo(PAGE_WAIT).until(driver -> driver.findElements(By.cssSelector(".opblock-summary-path"))
                .stream().anyMatch(path -> path.getText().equals("/admin/v1/partners")));
        BROWSER.get().screenshot("api-reference-admin");
    }
}
