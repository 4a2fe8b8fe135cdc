package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.OneBrowser;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The payer's side of 3-D Secure in a real browser: the hosted challenge page is opened at the address
 * the partner got in the signed {@code action_required} webhook, and the payer's click decides the payment.
 */
class ThreeDSecureInBrowserTest extends EndToEndTestBase {

    private static final String THREE_D_SECURE_CARD = "4000000000003220";
    private static final Duration PAGE_WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    static final OneBrowser BROWSER = new OneBrowser();

    @Test
    void payerApprovesTheChallengeAndThePaymentSucceeds() {
        TestPartner partner = registeredPartner("threeds");
        Challenge challenge = challengeFor(partner);
        WebDriver page = BROWSER.get().driver();

        page.get(challenge.url());
        assertThat(page.getTitle()).contains("3-D Secure");
        assertThat(page.findElement(By.tagName("h1")).getText()).contains("3-D Secure");
        assertThat(page.findElement(By.className("amount")).getText()).isEqualTo("100.00 RUB");
        assertThat(page.findElement(By.tagName("body")).getText()).contains(challenge.paymentId())
                .doesNotContain("3220");
        BROWSER.get().screenshot("3ds-challenge");

        page.findElement(By.id("approve")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "Approved"));
        assertThat(page.findElements(By.id("approve"))).as("the challenge is answered only once").isEmpty();
        BROWSER.get().screenshot("3ds-approved");

        Received finished = WEBHOOKS.await(challenge.sessionId(), "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        JsonNode payment = finished.session().path("acquiring_payments").path(0);
        assertThat(payment.path("id").asText()).isEqualTo(challenge.paymentId());
        assertThat(payment.path("status").asText()).isEqualTo("succeeded");
        assertThat(payment.path("transaction_info").path("rrn").asText()).matches("\\d{12}");

        Answer status = partner.post("/api/v1/session/status", sessionRef(challenge.sessionId()));
        assertThat(status.status()).isEqualTo(200);
        assertThat(status.session()).isEqualTo(finished.session());
        assertThat(WEBHOOKS.forSession(challenge.sessionId())).extracting(Received::type)
                .containsExactly("ready_to_confirm", "action_required", "payment_finished");
    }

    @Test
    void payerDeclinesTheChallengeAndThePaymentFailsWithA3dsError() {
        TestPartner partner = registeredPartner("threeds-decline");
        Challenge challenge = challengeFor(partner);
        WebDriver page = BROWSER.get().driver();

        page.get(challenge.url());
        page.findElement(By.id("decline")).click();
        BROWSER.get().waitUpTo(PAGE_WAIT).until(ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "Declined"));

        Received finished = WEBHOOKS.await(challenge.sessionId(), "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("status").asText()).isEqualTo("cancelled");
        JsonNode payment = finished.session().path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("failed");
        assertThat(payment.path("error").path("code").asText()).isEqualTo("3DS_error");
        assertThat(payment.has("transaction_info")).isFalse();
        assertThat(partner.post("/api/v1/session/status", sessionRef(challenge.sessionId())).session())
                .isEqualTo(finished.session());
        assertThat(WEBHOOKS.forSession(challenge.sessionId())).extracting(Received::type)
                .containsExactly("ready_to_confirm", "action_required", "payment_finished");
    }

    private record Challenge(String sessionId, String paymentId, String url) {
    }

    /** init/payment with the 3-D Secure card, confirmed; the challenge as the signed action_required gives it. */
    private Challenge challengeFor(TestPartner partner) {
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment(THREE_D_SECURE_CARD, "123"));

        Received actionRequired = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT);
        assertThat(actionRequired.signatureValid()).isTrue();
        assertThat(actionRequired.session().path("status").asText()).isEqualTo("in_progress");
        JsonNode payment = actionRequired.session().path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("pending");
        JsonNode interaction = payment.path("customer_interaction");
        assertThat(interaction.path("type").asText()).isEqualTo("redirect");
        assertThat(interaction.path("redirect").path("method").asText()).isEqualTo("GET");
        String url = interaction.path("redirect").path("url").asText();
        assertThat(url).as(actionRequired.rawBody()).startsWith("http://localhost:" + port + "/sandbox/interactions/");
        return new Challenge(sessionId, payment.path("id").asText(), url);
    }
}
