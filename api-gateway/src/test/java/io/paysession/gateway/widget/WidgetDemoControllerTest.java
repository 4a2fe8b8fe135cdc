package io.paysession.gateway.widget;

import io.paysession.command.vault.PublicTokens;
import io.paysession.gateway.partners.DemoPartner;
import io.paysession.gateway.support.Templates;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.env.MockEnvironment;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** When the demo page issues a public token of its own: only for an enabled demo partner, never in production. */
class WidgetDemoControllerTest {

    private static final String ISSUED = "ab".repeat(32);

    /** Records the projects it issues for instead of writing to the database. */
    private static final class RecordingPublicTokens extends PublicTokens {
        final List<String> issuedFor = new ArrayList<>();

        RecordingPublicTokens() {
            super(null, Clock.systemUTC());
        }

        @Override
        public String issue(String project, String locale) {
            issuedFor.add(project + "/" + locale);
            return ISSUED;
        }
    }

    private final RecordingPublicTokens tokens = new RecordingPublicTokens();

    @Test
    void withTheDemoPartnerEnabledThePageIssuesATokenForIt() {
        ResponseEntity<String> page = controller(true).demo(null);

        assertThat(page.getStatusCode().value()).isEqualTo(200);
        assertThat(tokens.issuedFor).containsExactly("demo/en");
        assertThat(page.getBody()).contains("data-public-token=\"" + ISSUED + "\"", "demo partner <code>demo</code>",
                "<script src=\"card-tokenizer.js\"></script><script src=\"demo.js\"></script>");
        assertThat(page.getHeaders().getFirst("Content-Security-Policy")).contains("script-src 'self'", "frame-ancestors 'none'");
    }

    @Test
    void inTheProductionProfileThePageIssuesNoTokenEvenWithTheDemoPartnerEnabled() {
        MockEnvironment production = new MockEnvironment();
        production.setActiveProfiles("production");
        ResponseEntity<String> page = new WidgetDemoController(demoPartner(true), tokens, production, Templates.compiler()).demo(null);

        assertThat(tokens.issuedFor).isEmpty();
        assertThat(page.getBody()).contains("needs a public token of your project", "POST /api/v1/token")
                .doesNotContain("data-public-token");
    }

    @Test
    void withTheDemoPartnerDisabledThePageAsksForAToken() {
        ResponseEntity<String> page = controller(false).demo(null);

        assertThat(tokens.issuedFor).isEmpty();
        assertThat(page.getStatusCode().value()).isEqualTo(200);
        assertThat(page.getBody()).contains("needs a public token of your project").doesNotContain("data-public-token");
    }

    @Test
    void aTokenInTheAddressIsUsedAsGivenAndAMalformedOneIsRefused() {
        String given = "0123456789abcdef".repeat(4);
        assertThat(controller(true).demo(given).getBody()).contains("data-public-token=\"" + given + "\"");

        ResponseEntity<String> malformed = controller(true).demo("\"><script>alert(1)</script>");
        assertThat(malformed.getStatusCode().value()).isEqualTo(400);
        assertThat(malformed.getBody()).contains("not a public token").doesNotContain("<script>alert");
        assertThat(tokens.issuedFor).as("a page with a token in its address issues none").isEmpty();
    }

    private WidgetDemoController controller(boolean demoPartnerEnabled) {
        return new WidgetDemoController(demoPartner(demoPartnerEnabled), tokens, new MockEnvironment(),
                Templates.compiler());
    }

    private static DemoPartner demoPartner(boolean enabled) {
        return new DemoPartner(enabled, "demo", "", null, null, null);
    }
}
