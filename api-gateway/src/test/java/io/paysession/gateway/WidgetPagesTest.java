package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The widget's files and its frame page over plain HTTP: types, caching, and the frame's security headers. */
class WidgetPagesTest extends EndToEndTestBase {

    @Test
    void theScriptAndTheStylesheetAreServedFromTheWidgetAddress() {
        Answer script = get("/widget/card-tokenizer.js");
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValue("text/javascript;charset=UTF-8");
        assertThat(script.text()).contains("window.CardTokenizer = CardTokenizer", "'Card number'", "'Link the card'");
        assertThat(script.headers().firstValue("Cache-Control")).hasValue("max-age=300, public");
        assertThat(script.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");

        Answer styles = get("/widget/card-tokenizer.css");
        assertThat(styles.status()).isEqualTo(200);
        assertThat(styles.headers().firstValue("Content-Type")).hasValue("text/css;charset=UTF-8");
        assertThat(styles.text()).contains(".card-tokenizer {", ".card-tokenizer__frame {");

        Answer unknown = get("/widget/other.js");
        assertThat(unknown.status()).isEqualTo(404);
    }

    @Test
    void theFrameMayBeEmbeddedByAnyPageButRunsOnlyTheServicesOwnScript() {
        Answer frame = get("/widget/frame?origin=" + encode("https://shop.example")
                + "&card_number_label=" + encode("<b>Номер</b> карты") + "&submit_button_label=" + encode("Link \"it\""));

        assertThat(frame.status()).isEqualTo(200);
        assertThat(frame.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        String policy = frame.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertThat(policy).contains("frame-ancestors *", "script-src 'self'", "default-src 'none'", "form-action 'none'");
        assertThat(frame.headers().firstValue("X-Frame-Options")).as("would forbid the framing CSP allows").isEmpty();
        assertThat(frame.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(frame.text()).contains("data-origin=\"https://shop.example\"",
                "<label for=\"card-number\">&lt;b&gt;Номер&lt;/b&gt; карты</label>", "Link &quot;it&quot;",
                "<script src=\"frame.js\"></script>");
        assertThat(frame.text()).as("no inline script, no handler attributes").doesNotContain("<script>").doesNotContainPattern("\\son[a-z]+=");
        assertThat(frame.text()).as("the card field has no name, so a form post could carry nothing")
                .doesNotContainPattern("<input[^>]*\\sname=");
    }

    @Test
    void theFrameWithoutTheEmbeddingPagesOriginIsRefused() {
        for (String origin : new String[]{"", "shop.example", "https://shop.example/checkout", "javascript:alert(1)",
                "https://user@shop.example", "ftp://shop.example", "https://shop.example?x=1"}) {
            Answer frame = get("/widget/frame?origin=" + encode(origin));
            assertThat(frame.status()).as(origin).isEqualTo(400);
            assertThat(frame.text()).contains("origin");
            assertThat(frame.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                    assertThat(policy).contains("script-src 'self'"));
        }
        assertThat(get("/widget/frame?origin=" + encode("http://127.0.0.1:8081")).status()).isEqualTo(200);
        assertThat(get("/widget/frame?origin=" + encode("https://shop.example") + "&card_number_label="
                + "x".repeat(201)).status()).isEqualTo(400);
    }

    private Answer get(String path) {
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET().build());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
