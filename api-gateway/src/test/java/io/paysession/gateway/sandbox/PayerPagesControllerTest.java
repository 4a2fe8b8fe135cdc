package io.paysession.gateway.sandbox;

import com.samskivert.mustache.Mustache;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.sandbox.InteractionKind;
import io.paysession.command.rails.sandbox.SandboxInteractions;
import io.paysession.command.rails.sandbox.SandboxInteractions.State;
import io.paysession.command.rails.sandbox.SandboxPayerActions;
import io.paysession.command.rails.sandbox.SandboxPayerPushes;
import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.support.Templates;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletResponse;

import javax.crypto.spec.SecretKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hosted payer page as its template renders it, without Spring: what the partner gave (its return address)
 * is shown escaped, so it can neither close the link's attribute nor open a script; the template is read once.
 */
class PayerPagesControllerTest {

    private static final String INTERACTION = "0123456789abcdef";
    private static final String HOSTILE_RETURN_URL = "https://shop.example/back?x=\"><script>alert('pwned')</script>";

    private final PayerPageTokens tokens = new PayerPageTokens(
            new VaultKeyRing("key-1", Map.of("key-1", new SecretKeySpec(new byte[32], "AES"))));

    @Test
    void thePartnersReturnAddressIsShownEscapedAndCannotOpenAScript() {
        String page = open(Templates.compiler(), State.APPROVED, HOSTILE_RETURN_URL).getBody();

        assertThat(page).contains("Approved. You can go back to the shop.")
                .contains("<a id=\"return\" href=\"https://shop.example/back?x&#x3D;&quot;&gt;&lt;script&gt;"
                        + "alert(&#39;pwned&#39;)&lt;/script&gt;\">Back to the shop</a>")
                .doesNotContain("<script>", "alert('pwned')", "\"><");
    }

    @Test
    void anOpenPageCarriesItsFormTokenInBothFormsAndTheHeadersThatKeepItOutOfFramesAndCaches() {
        MockHttpServletResponse response = new MockHttpServletResponse();
        ResponseEntity<String> page = controller(Templates.compiler(), State.OPEN, null).page(INTERACTION, response);

        assertThat(page.getStatusCode().value()).isEqualTo(200);
        String token = tokens.tokenFor(INTERACTION);
        assertThat(page.getBody()).containsSubsequence(
                "<title>3-D Secure verification</title>", "<p class=\"amount\">123.45 RUB</p>", "<p>Payment pm_9</p>",
                "<form method=\"post\" action=\"/sandbox/interactions/" + INTERACTION + "/approve\">",
                "<input type=\"hidden\" name=\"form_token\" value=\"" + token + "\">", "id=\"approve\"",
                "/decline\">", token, "id=\"decline\"");
        String policy = response.getHeader("Content-Security-Policy");
        assertThat(policy).contains("frame-ancestors 'none'", "default-src 'none'", "style-src 'sha256-");
        assertThat(response.getHeader("Cache-Control")).isEqualTo("no-store");
    }

    @Test
    void theTemplateIsReadOnceNotForEveryPage() {
        List<String> loaded = new ArrayList<>();
        Mustache.TemplateLoader templates = Templates.compiler().loader;
        Mustache.Compiler counting = Templates.compiler().withLoader(name -> {
            loaded.add(name);
            return templates.getTemplate(name);
        });
        PayerPagesController controller = controller(counting, State.OPEN, null);

        for (int i = 0; i < 3; i++) {
            assertThat(controller.page(INTERACTION, new MockHttpServletResponse()).getBody()).contains("id=\"approve\"");
        }
        assertThat(loaded).containsExactly("sandbox/payer-page");
    }

    private ResponseEntity<String> open(Mustache.Compiler compiler, State state, String returnUrl) {
        return controller(compiler, state, returnUrl).page(INTERACTION, new MockHttpServletResponse());
    }

    private PayerPagesController controller(Mustache.Compiler compiler, State state, String returnUrl) {
        RailOperation operation = new RailOperation(SessionId.of(7), PaymentId.of(9),
                new RailOrder(new BankAppMethod(), Money.of(12345, "RUB"), CaptureMode.AUTO, returnUrl));
        SandboxInteractions.Interaction interaction = new SandboxInteractions.Interaction(INTERACTION, operation,
                InteractionKind.THREE_D_SECURE, state, Instant.EPOCH);
        SandboxPayerActions actions = new SandboxPayerActions(null, List.of(), null, null) {
            @Override
            public Optional<SandboxInteractions.Interaction> find(String id) {
                return Optional.of(interaction).filter(found -> found.id().equals(id));
            }
        };
        SandboxPayerPushes noPushes = new SandboxPayerPushes(null, null, null) {
            @Override
            public List<Sent> sentFor(String interactionId) {
                return List.of();
            }
        };
        return new PayerPagesController(actions, tokens, noPushes, compiler);
    }
}
