package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.PayerPage;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.URI;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hosted payer pages against another site: a payer's browser can be made to post to a page's address
 * (a hidden form, a script of another site), but without the page's form token such an answer is refused and
 * changes nothing; the page itself is never framed, cached or named in a {@code Referer}. Scripts keep
 * answering with a bare POST, as decisions.md section 5 has them do.
 */
class PayerPagesRefuseForgedAnswersTest extends EndToEndTestBase {

    private static final String THREE_D_SECURE_CARD = "4000000000003220";
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String EVIL = "https://shop-of-an-attacker.example";

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void thePageCarriesItsOwnFormTokenAndIsNeitherFramedNorCachedNorNamedInAReferer() {
        TestPartner partner = registeredPartner("pages-headers");
        String first = challenge(partner);
        String second = challenge(partner);

        Answer page = PayerPage.open(baseUrl(), first);

        assertThat(page.status()).isEqualTo(200);
        assertPageHeaders(page);
        String token = PayerPage.formToken(page);
        assertThat(token).matches("[0-9a-f]{64}");
        assertThat(page.text()).as("both forms carry it").containsSubsequence("/approve", token, "/decline", token);
        assertThat(PayerPage.open(baseUrl(), first).text()).as("the same for the page's whole life").contains(token);
        assertThat(PayerPage.formToken(PayerPage.open(baseUrl(), second))).as("bound to its interaction")
                .isNotEqualTo(token);
        assertThat(first).doesNotContain(token);
        assertPageHeaders(PayerPage.open(baseUrl(), "/sandbox/interactions/" + "00".repeat(20)));
    }

    @Test
    void anAnswerABrowserCouldBeMadeToSendWithoutThePagesTokenIsRefusedAndChangesNothing() {
        TestPartner partner = registeredPartner("pages-forged");
        String url = challenge(partner);
        String otherPagesToken = PayerPage.formToken(PayerPage.open(baseUrl(), challenge(partner)));

        // another site's hidden form, auto-submitted in the payer's browser
        Answer forgedForm = PayerPage.post(baseUrl(), url, true, Map.of("Content-Type", FORM, "Origin", EVIL), "");
        assertThat(forgedForm.status()).isEqualTo(403);
        assertThat(forgedForm.text()).contains("Answer not accepted", "form token is missing or wrong");
        assertPageHeaders(forgedForm);
        // the same form with the token of another payment's page
        assertThat(PayerPage.post(baseUrl(), url, true, Map.of("Content-Type", FORM, "Origin", EVIL),
                "form_token=" + otherPagesToken).status()).isEqualTo(403);
        // a form without Origin (an old browser) still names the page it came from
        assertThat(PayerPage.post(baseUrl(), url, true, Map.of("Content-Type", FORM, "Referer", EVIL + "/checkout"), "")
                .status()).isEqualTo(403);
        // another site's script: fetch(url, {method: 'POST', mode: 'no-cors', referrerPolicy: 'no-referrer'})
        Answer forgedFetch = PayerPage.post(baseUrl(), url, true, Map.of("Origin", "null", "Sec-Fetch-Site", "cross-site"), "");
        assertThat(forgedFetch.status()).isEqualTo(403);
        assertThat(forgedFetch.errorCode()).isEqualTo("authorization_error");
        assertThat(forgedFetch.errorDescription()).contains("payment page");
        // a plain-text body, the third kind another site may post without asking
        assertThat(PayerPage.post(baseUrl(), url, false, Map.of("Content-Type", "text/plain", "Origin", EVIL),
                "form_token=" + otherPagesToken).status()).isEqualTo(403);
        // ...and without Origin or Referer: a text/plain or form body is still what a page could have posted
        assertThat(PayerPage.post(baseUrl(), url, false, Map.of("Content-Type", "text/plain"), "").status())
                .isEqualTo(403);

        assertThat(interactionState(url)).as("nothing was answered").isEqualTo("OPEN");
        assertThat(PayerPage.open(baseUrl(), url).text()).contains("id=\"approve\"");

        Answer payer = PayerPage.answerInBrowser(baseUrl(), url, true);
        assertThat(payer.status()).as(payer.toString()).isEqualTo(303);
        assertPageHeaders(payer);
        assertThat(PayerPage.open(baseUrl(), url).text()).contains("Approved");
        Received finished = WEBHOOKS.await(sessionOf(url), "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("acquiring_payments").path(0).path("status").asText()).isEqualTo("succeeded");
    }

    @Test
    void aScriptStillAnswersWithABarePost() {
        TestPartner partner = registeredPartner("pages-script");
        String url = challenge(partner);

        Answer script = payerAnswers(url, false);

        assertThat(script.status()).as(script.toString()).isEqualTo(200);
        assertThat(script.body().path("result").asText()).isEqualTo("declined");
        assertPageHeaders(script);
        Received finished = WEBHOOKS.await(sessionOf(url), "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("acquiring_payments").path(0).path("error").path("code").asText())
                .isEqualTo("3DS_error");
    }

    private static void assertPageHeaders(Answer answer) {
        assertThat(answer.headers().firstValue("Content-Security-Policy")).get().asString()
                .contains("frame-ancestors 'none'", "default-src 'none'", "form-action 'self'");
        assertThat(answer.headers().firstValue("Referrer-Policy")).contains("no-referrer");
        assertThat(answer.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(answer.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
    }

    /**
     * A 3-D Secure card payment, confirmed, waiting for the payer; its page's address. Each has an order reference
     * of its own: a signed payment body runs once.
     */
    private String challenge(TestPartner partner) {
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment(THREE_D_SECURE_CARD, "123").put("metadata", "order " + UUID.randomUUID()));
        JsonNode payment = WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session()
                .path("acquiring_payments").path(0);
        return payment.path("customer_interaction").path("redirect").path("url").asText();
    }

    private String interactionId(String url) {
        String path = URI.create(url).getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private String interactionState(String url) {
        return jdbc.queryForObject("select state from sandbox_interaction where id = ?", String.class, interactionId(url));
    }

    private String sessionOf(String url) {
        return jdbc.queryForObject("select session_id from sandbox_interaction where id = ?", String.class,
                interactionId(url));
    }
}
