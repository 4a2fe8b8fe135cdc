package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.gateway.support.HeadlessChromium;
import io.paysession.gateway.support.PartnerSite;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The card-tokenizer widget in a real browser, on a partner's page of another origin (its own port of
 * 127.0.0.1) that loads the widget's files from the service and records every handler call into the page.
 * The payer types into the service's frame; the partner pays out to the card by the token it got.
 */
class CardTokenizerWidgetInBrowserTest extends EndToEndTestBase {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FRAME = "#card-tokenizer iframe";
    /** Set by the partner's stylesheet, linked after the widget's. */
    private static final String PARTNER_BORDER = "rgb(200, 0, 0)";
    private static final String PARTNER_TEXT = "rgb(0, 128, 0)";
    /** The frame's own colour of the typed number (frame.css). */
    private static final String FRAME_TEXT = "rgb(16, 24, 40)";

    private static HeadlessChromium browser;
    private static PartnerSite site;

    @Autowired
    private JdbcTemplate jdbc;

    @BeforeEach
    void startBrowserAndPartnerSite() {
        if (browser == null) {
            browser = HeadlessChromium.start();
        }
        if (site == null) {
            site = new PartnerSite();
        }
        site.serve("/checkout", "text/html; charset=utf-8", partnerPage(baseUrl()))
                .serve("/shop.css", "text/css", ".card-tokenizer { border-color: " + PARTNER_BORDER + "; }\n"
                        + "input { color: " + PARTNER_TEXT + " !important; }\n")
                .serve("/forged", "text/html; charset=utf-8", forgedFramePage(baseUrl()));
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
    void aCardTypedIntoTheWidgetOnAPartnersPageIsTokenizedAndPaidOutByItsToken() {
        TestPartner partner = registeredPartner("widget-payout");
        openCheckout(publicToken(partner), null, null);

        inFrame(() -> {
            assertThat(driver().findElement(By.tagName("label")).getText()).isEqualTo("Card number");
            assertThat(driver().findElement(By.id("card-submit")).getText()).isEqualTo("Link the card");
        });
        assertThat(browser.screenshot("card-tokenizer-widget")).exists();
        inFrame(() -> {
            typeCardNumber("4242 4242 4242 4242");
            WebElement network = driver().findElement(By.id("card-network"));
            assertThat(network.getText()).isEqualTo("Visa");
            assertThat(network.getAttribute("data-network")).isEqualTo("visa");
            assertThat(driver().findElement(By.id("card-number")).getAttribute("class")).contains("complete");
            driver().findElement(By.id("card-submit")).click();
        });
        JsonNode success = awaitEvent("onTokenizationSuccess");

        assertThat(handlers()).containsExactly("onReady", "onTokenizationStart", "onTokenizationSuccess");
        String cardToken = success.path("argument").path("token").asText();
        assertThat(cardToken).matches("card_[0-9a-f]{32}");
        assertThat(success.path("argument").path("info")).hasToString(
                "{\"card_network\":\"visa\",\"card_type\":\"credit\",\"masked_card_number\":\"424242******4242\"}");
        inFrame(() -> {
            browser.waitUpTo(WAIT).until(ExpectedConditions.textToBe(By.id("card-result"), "Card 424242******4242 linked."));
            WebElement input = driver().findElement(By.id("card-number"));
            assertThat(input.getAttribute("value")).as("the number does not stay in the form").isEmpty();
            assertThat(input.isEnabled()).as("the public token is used up").isFalse();
        });
        assertThat(browser.screenshot("card-tokenizer-linked")).exists();

        Received finished = payOutByWidgetToken(partner, cardToken);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        JsonNode payout = finished.session().path("payments").path(0);
        assertThat(payout.path("status").asText()).isEqualTo("succeeded");
        assertThat(payout.path("amount_details")).hasToString("{\"amount\":150000,\"currency\":\"rub\"}");
        assertThat(payout.path("payment_method").path("card").path("brand").asText()).isEqualTo("visa");
        assertThat(payout.path("payment_method").path("card").path("last4").asText()).isEqualTo("4242");
    }

    @Test
    void aNumberFailingTheLuhnCheckIsShownInTheFrameAndTheSameTokenThenLinksACorrectedNumber() {
        openCheckout(publicToken(registeredPartner("widget-typo")), "Номер карты", "Привязать карту");

        inFrame(() -> {
            assertThat(driver().findElement(By.tagName("label")).getText()).isEqualTo("Номер карты");
            assertThat(driver().findElement(By.id("card-submit")).getText()).isEqualTo("Привязать карту");
            typeCardNumber("4242424242424241");
            assertThat(driver().findElement(By.id("card-error")).getText())
                    .as("shown as soon as the number is whole").isEqualTo("Check the card number: no card has this number.");
            assertThat(driver().findElement(By.id("card-number")).getAttribute("aria-invalid")).isEqualTo("true");
            driver().findElement(By.id("card-submit")).click();
            assertThat(driver().findElement(By.id("card-error")).getText()).contains("no card has this number");
        });
        assertThat(browser.screenshot("card-tokenizer-invalid-number")).exists();
        assertThat(handlers()).as("a refused number starts nothing").containsExactly("onReady");

        inFrame(() -> {
            driver().findElement(By.id("card-number")).clear();
            typeCardNumber("5555555555554444");
            assertThat(driver().findElement(By.id("card-error")).getText()).isEmpty();
            assertThat(driver().findElement(By.id("card-network")).getText()).isEqualTo("Mastercard");
            driver().findElement(By.id("card-submit")).click();
        });
        JsonNode success = awaitEvent("onTokenizationSuccess");
        assertThat(success.path("argument").path("info").path("masked_card_number").asText()).isEqualTo("555555******4444");
        assertThat(success.path("argument").path("info").path("card_network").asText()).isEqualTo("mastercard");
        assertThat(handlers()).containsExactly("onReady", "onTokenizationStart", "onTokenizationSuccess");
    }

    @Test
    void aPublicTokenAlreadyUsedEndsInOnTokenizationFail() {
        String publicToken = publicToken(registeredPartner("widget-used"));
        assertThat(tokenizeCard(publicToken, "{\"card\":{\"number\":\"4242424242424242\"}}").status()).isEqualTo(200);

        assertTheWidgetReportsADeadToken(publicToken);
    }

    @Test
    void aPublicTokenOlderThanTwentyFourHoursEndsInOnTokenizationFail() {
        String publicToken = publicToken(registeredPartner("widget-expired"));
        // the passage of 24 hours
        jdbc.update("update public_token set expires_at = now() - interval '1 second' "
                + "where token = encode(sha256(convert_to(?, 'UTF8')), 'hex')", publicToken);

        assertTheWidgetReportsADeadToken(publicToken);
    }

    @Test
    void thePartnersPageCanNeitherReadTheFrameNorRestyleItsValueNorForgeItsMessages() {
        openCheckout(publicToken(registeredPartner("widget-isolation")), null, null);
        inFrame(() -> typeCardNumber("4242424242424242"));

        Object reading = script("""
                const frame = document.querySelector(arguments[0]);
                try {
                  return 'read ' + frame.contentWindow.document.getElementById('card-number').value;
                } catch (e) {
                  return e.name;
                }""", FRAME);
        assertThat(reading).as("the frame's document is out of the page's reach").isEqualTo("SecurityError");
        assertThat(script("return document.querySelector(arguments[0]).contentDocument === null;", FRAME)).isEqualTo(true);

        assertThat(script("return getComputedStyle(document.getElementById('card-tokenizer')).borderTopColor;"))
                .as("the partner's stylesheet restyles the container").isEqualTo(PARTNER_BORDER);
        inFrame(() -> assertThat(script("return getComputedStyle(document.getElementById('card-number')).color;"))
                .as("but not the typed number").isEqualTo(FRAME_TEXT));

        // the page's own listener runs after the widget's (added later), so once it has seen the message, so has the widget
        script("""
                window.addEventListener('message', (event) => { if (event.data && event.data.probe) record('probe seen'); });
                window.postMessage({ type: 'success', probe: true,
                    cardToken: { token: 'card_forged', info: { masked_card_number: '424242******4242' } } }, '*');""");
        awaitEvent("probe seen");
        assertThat(handlers()).as("a message not from the widget's frame is ignored").containsExactly("onReady", "probe seen");
    }

    @Test
    void aFrameDeclaredForAnotherPageTellsTheEmbeddingPageNothing() {
        driver().get(site.origin() + "/forged");
        inFrame(() -> {
            browser.waitUpTo(WAIT).until(ExpectedConditions.textToBe(By.id("card-error"),
                    "This form cannot be used on this page."));
            assertThat(driver().findElement(By.id("card-number")).isEnabled()).isFalse();
        });
        assertThat(events()).as("no message from the frame reached the page").isEmpty();
    }

    @Test
    void theDemoPageShowsTheWidgetWithThePublicTokenInItsAddress() {
        String publicToken = publicToken(registeredPartner("widget-demo"));
        driver().get(baseUrl() + "/widget/demo");
        assertThat(driver().findElement(By.id("notice")).getText())
                .as("the tests' service has no demo partner to issue a token for")
                .contains("needs a public token of your project");
        assertThat(driver().findElements(By.cssSelector(FRAME))).isEmpty();

        driver().get(baseUrl() + "/widget/demo?public_token=" + publicToken);
        awaitEvent("onReady");
        inFrame(() -> {
            typeCardNumber("2200000000000004");
            assertThat(driver().findElement(By.id("card-network")).getText()).isEqualTo("Mir");
        });
        assertThat(browser.screenshot("card-tokenizer-demo")).exists();
        inFrame(() -> driver().findElement(By.id("card-submit")).click());

        JsonNode success = awaitEvent("onTokenizationSuccess");
        assertThat(success.path("argument").path("info")).hasToString(
                "{\"card_network\":\"mir\",\"card_type\":\"debit\",\"masked_card_number\":\"220000******0004\"}");
        assertThat(handlers()).containsExactly("onReady", "onTokenizationStart", "onTokenizationSuccess");
    }

    private void assertTheWidgetReportsADeadToken(String publicToken) {
        openCheckout(publicToken, null, null);
        inFrame(() -> {
            typeCardNumber("4242424242424242");
            driver().findElement(By.id("card-submit")).click();
        });
        JsonNode fail = awaitEvent("onTokenizationFail");

        assertThat(handlers()).containsExactly("onReady", "onTokenizationStart", "onTokenizationFail");
        assertThat(fail.path("argument")).hasToString("{\"code\":\"authentication_error\","
                + "\"description\":\"The public token is unknown, expired or already used\"}");
        inFrame(() -> {
            assertThat(driver().findElement(By.id("card-error")).getText()).contains("expired or was already used");
            assertThat(driver().findElement(By.id("card-submit")).isEnabled()).isFalse();
        });
    }

    /** The partner's checkout with the widget; waits for {@code onReady}. */
    private void openCheckout(String publicToken, String cardNumberLabel, String submitButtonLabel) {
        String address = site.origin() + "/checkout?token=" + publicToken;
        if (cardNumberLabel != null) {
            address += "&label=" + URLEncoder.encode(cardNumberLabel, StandardCharsets.UTF_8)
                    + "&button=" + URLEncoder.encode(submitButtonLabel, StandardCharsets.UTF_8);
        }
        driver().get(address);
        awaitEvent("onReady");
    }

    private void typeCardNumber(String number) {
        WebElement input = browser.waitUpTo(WAIT).until(ExpectedConditions.elementToBeClickable(By.id("card-number")));
        input.sendKeys(number);
    }

    /** Runs {@code steps} inside the widget's frame and comes back to the partner's page. */
    private void inFrame(Runnable steps) {
        driver().switchTo().frame(driver().findElement(By.cssSelector(FRAME)));
        try {
            steps.run();
        } finally {
            driver().switchTo().defaultContent();
        }
    }

    private JsonNode awaitEvent(String handler) {
        browser.waitUpTo(WAIT).until(page -> events().stream().anyMatch(event -> event.path("handler").asText().equals(handler)));
        return events().stream().filter(event -> event.path("handler").asText().equals(handler)).findFirst().orElseThrow();
    }

    private List<String> handlers() {
        return events().stream().map(event -> event.path("handler").asText()).toList();
    }

    /** What the partner's handlers recorded into {@code <pre id="events">}, one JSON object a line. */
    private List<JsonNode> events() {
        String text = (String) script("return document.getElementById('events').textContent;");
        List<JsonNode> events = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                try {
                    events.add(JSON.readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return events;
    }

    private Object script(String source, Object... arguments) {
        return ((JavascriptExecutor) driver()).executeScript(source, arguments);
    }

    private static WebDriver driver() {
        return browser.driver();
    }

    /** A shop's page as a partner writes it: the widget's files from the service, its own styles after them. */
    private static String partnerPage(String service) {
        return """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Shop: link a card</title>
                <link rel="stylesheet" href="%1$s/widget/card-tokenizer.css">
                <link rel="stylesheet" href="/shop.css">
                </head><body>
                <h1>Where should we send your winnings?</h1>
                <div id="card-tokenizer"></div>
                <pre id="events"></pre>
                <script src="%1$s/widget/card-tokenizer.js"></script>
                <script>
                  function record(handler, argument) {
                    document.getElementById('events').textContent += JSON.stringify({ handler, argument }) + '\\n';
                  }
                  const query = new URLSearchParams(location.search);
                  const options = query.has('label')
                      ? { texts: { cardNumberLabel: query.get('label'), submitButtonLabel: query.get('button') } } : {};
                  const tokenizer = new CardTokenizer(query.get('token'), options);
                  tokenizer.onReady = () => record('onReady');
                  tokenizer.onTokenizationStart = () => record('onTokenizationStart');
                  tokenizer.onTokenizationSuccess = (cardToken) => record('onTokenizationSuccess', cardToken);
                  tokenizer.onTokenizationFail = (error) => record('onTokenizationFail', error);
                  tokenizer.render();
                </script>
                </body></html>
                """.formatted(service);
    }

    /** A page that embeds the frame itself, claiming to be another origin; it records every message it gets. */
    private static String forgedFramePage(String service) {
        return """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Not the partner</title></head><body>
                <div id="card-tokenizer"><iframe src="%s/widget/frame?origin=http%%3A%%2F%%2F127.0.0.1%%3A1"></iframe></div>
                <pre id="events"></pre>
                <script>
                  window.addEventListener('message', (event) => {
                    document.getElementById('events').textContent += JSON.stringify({ handler: 'message', argument: event.data }) + '\\n';
                  });
                </script>
                </body></html>
                """.formatted(service);
    }
}
