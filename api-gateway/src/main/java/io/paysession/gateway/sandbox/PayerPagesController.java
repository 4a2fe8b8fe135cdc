package io.paysession.gateway.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.money.Money;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.command.rails.sandbox.InteractionKind;
import io.paysession.command.rails.sandbox.SandboxInteractions;
import io.paysession.command.rails.sandbox.SandboxPayerActions;
import io.paysession.command.rails.sandbox.SandboxPayerPushes;
import io.paysession.gateway.http.ApiResponses;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The hosted payer pages of the sandbox rails (decisions.md section 5): a page with Approve and Decline
 * for every payer action (3-D Secure challenge, wallet, bank application, QR application, instant
 * payment). The page's buttons post a form and come back to the page; scripts post to the same
 * addresses and get JSON.
 * <p>
 * A browser's answer must carry the page's form token ({@link PayerPageTokens}): a request a browser could
 * send (it names an {@code Origin} or {@code Referer}, carries {@code Sec-Fetch-*} headers, or has a body a
 * page may post across sites without asking: a form or plain text) without the token is refused (403
 * {@code authorization_error}) and changes nothing, so another site cannot make a payer's browser answer.
 * Scripts send none of these and post without a body, as the contract has them do. Every answer is kept out
 * of frames, caches and {@code Referer} headers.
 * <p>
 * The pages come from the template {@code templates/sandbox/payer-page.mustache}, compiled once at start;
 * Mustache escapes every value written into it.
 */
@RestController
@ConditionalOnSandboxRails
public class PayerPagesController {

    /** The form field of the page's token. */
    static final String FORM_TOKEN = "form_token";

    private static final String STYLE = "body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}"
            + "button{font-size:1rem;padding:.6rem 1.4rem;margin:.3rem 0}.amount{font-size:1.6rem}";
    /** Nothing but the page's own style runs; forms go to this service only; no site may frame the page. */
    private static final String POLICY = "default-src 'none'; style-src '" + sha256(STYLE) + "'; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'";
    /** Headers of a browser's request: a request with any of them is checked for the form token. */
    private static final List<String> BROWSER_HEADERS = List.of("Origin", "Referer", "Sec-Fetch-Site", "Sec-Fetch-Mode");
    /** The bodies a page of another site may post without asking (CORS-safelisted types). */
    private static final List<String> SIMPLE_BODIES = List.of(MediaType.APPLICATION_FORM_URLENCODED_VALUE,
            MediaType.MULTIPART_FORM_DATA_VALUE, MediaType.TEXT_PLAIN_VALUE);

    private final SandboxPayerActions actions;
    private final PayerPageTokens tokens;
    private final SandboxPayerPushes pushes;
    private final Template page;

    public PayerPagesController(SandboxPayerActions actions, PayerPageTokens tokens, SandboxPayerPushes pushes,
                                Mustache.Compiler templates) {
        this.actions = actions;
        this.tokens = tokens;
        this.pushes = pushes;
        this.page = templates.loadTemplate("sandbox/payer-page");
    }

    /** What the page template shows; a {@code null} part is left out. */
    private record Page(String title, String style, Payment payment, Question question, String message, String result,
                        String returnUrl, List<String> pushes) {
        Page(String title, String style, Payment payment, Question question, String message, String result,
             String returnUrl) {
            this(title, style, payment, question, message, result, returnUrl, List.of());
        }

        Page(String title) {
            this(title, STYLE, null, null, null, null, null);
        }

        Page withMessage(String text) {
            return new Page(title, style, payment, question, text, result, returnUrl, pushes);
        }

        Page withResult(String text) {
            return new Page(title, style, payment, question, message, text, returnUrl, pushes);
        }

        /** The notifications sent to the payer about this payment ({@code sberpay/push}), as lines of text. */
        Page withPushes(List<String> lines) {
            return new Page(title, style, payment, question, message, result, returnUrl, lines);
        }
    }

    private record Payment(String amount, String paymentId) {
    }

    private record Question(String prompt, String interactionId, String formToken) {
    }

    @GetMapping(value = "/sandbox/interactions/{id}", produces = MediaType.TEXT_HTML_VALUE)
    public ResponseEntity<String> page(@PathVariable String id, HttpServletResponse response) {
        pageHeaders(response);
        Optional<SandboxInteractions.Interaction> interaction = actions.find(id);
        if (interaction.isEmpty()) {
            return ResponseEntity.status(404).contentType(MediaType.TEXT_HTML)
                    .body(page.execute(new Page("Not found").withMessage("There is no such payment page.")));
        }
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(render(interaction.get()));
    }

    @PostMapping("/sandbox/interactions/{id}/approve")
    public ResponseEntity<?> approve(@PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        return resolve(id, true, request, response);
    }

    @PostMapping("/sandbox/interactions/{id}/decline")
    public ResponseEntity<?> decline(@PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        return resolve(id, false, request, response);
    }

    private ResponseEntity<?> resolve(String id, boolean approved, HttpServletRequest request,
                                      HttpServletResponse response) {
        pageHeaders(response);
        if (fromBrowser(request) && !tokens.accepts(id, request.getParameter(FORM_TOKEN))) {
            String refusal = "The answer must come from the payment page: its form token is missing or wrong";
            if (isFormPost(request)) {
                return ResponseEntity.status(403).contentType(MediaType.TEXT_HTML).body(page.execute(
                        new Page("Answer not accepted").withResult(refusal + ". Open the payment page again and answer there.")));
            }
            return ApiResponses.error(403, ErrorCode.AUTHORIZATION_ERROR, refusal);
        }
        SandboxPayerActions.Result result = actions.resolve(id, approved);
        if (isFormPost(request)) {
            return ResponseEntity.status(303).location(URI.create("/sandbox/interactions/" + id)).build();
        }
        return switch (result) {
            case UNKNOWN -> ApiResponses.error(404, ErrorCode.INVALID_REQUEST, "There is no such payer action");
            case NOT_OPEN -> ApiResponses.error(400, ErrorCode.SESSION_WRONG_STATE,
                    "The payer action is no longer open");
            case APPROVED, DECLINED -> {
                ObjectNode body = ApiResponses.ok().put("result", result.name().toLowerCase());
                yield ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
            }
        };
    }

    private static boolean isFormPost(HttpServletRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        return type != null && type.startsWith(MediaType.APPLICATION_FORM_URLENCODED_VALUE);
    }

    /** Whether a browser may have sent the request (a script sends none of this). */
    private static boolean fromBrowser(HttpServletRequest request) {
        if (BROWSER_HEADERS.stream().anyMatch(name -> request.getHeader(name) != null)) {
            return true;
        }
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        return type != null && SIMPLE_BODIES.stream().anyMatch(simple -> type.toLowerCase(Locale.ROOT).startsWith(simple));
    }

    /** Not framed (clickjacking), not cached, not named in a {@code Referer}, not sniffed into another type. */
    private static void pageHeaders(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy", POLICY);
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
    }

    private String render(SandboxInteractions.Interaction interaction) {
        String title = switch (interaction.kind()) {
            case THREE_D_SECURE -> "3-D Secure verification";
            case WALLET -> "E-wallet payment";
            case BANK_APP -> "Bank application payment";
            case QR_APP -> "QR application payment";
            case FASTER_PAYMENT -> "Instant payment";
        };
        Payment payment = new Payment(amount(interaction.operation().order().amount()),
                interaction.operation().paymentId().value());
        String returnUrl = returnUrl(interaction);
        Page shown = switch (interaction.state()) {
            case OPEN -> new Page(title, STYLE, payment, question(interaction), null, null, null);
            case RESOLVING -> new Page(title, STYLE, payment, null, null, "Your answer is being processed.", null);
            case APPROVED -> new Page(title, STYLE, payment, null, null, "Approved. You can go back to the shop.", returnUrl);
            case DECLINED -> new Page(title, STYLE, payment, null, null, "Declined.", returnUrl);
            case CLOSED -> new Page(title, STYLE, payment, null, null, "This payment can no longer be approved.", returnUrl);
        };
        return page.execute(shown.withPushes(pushes.sentFor(interaction.id()).stream()
                .map(sent -> "A notification about this payment was sent to the phone ending in " + sent.phoneLast4()
                        + " at " + WireFormat.timestamp(sent.at()))
                .toList()));
    }

    private Question question(SandboxInteractions.Interaction interaction) {
        String prompt = interaction.kind() == InteractionKind.THREE_D_SECURE
                ? "Confirm that you are making this card payment."
                : "Approve this payment in your application.";
        return new Question(prompt, interaction.id(), tokens.tokenFor(interaction.id()));
    }

    /** The partner's return address, when it is a web address a link may lead to; {@code null} otherwise. */
    private static String returnUrl(SandboxInteractions.Interaction interaction) {
        String url = interaction.operation().order().returnUrl();
        if (url == null || !(url.startsWith("https://") || url.startsWith("http://"))) {
            return null;
        }
        return url;
    }

    private static String amount(Money money) {
        int digits = Math.max(money.currency().getDefaultFractionDigits(), 0);
        return BigDecimal.valueOf(money.minorUnits()).movePointLeft(digits).toPlainString() + " "
                + money.currency().getCurrencyCode();
    }

    /** The CSP source of an inline text: {@code sha256-} and the Base64 of its digest. */
    private static String sha256(String text) {
        try {
            return "sha256-" + Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
