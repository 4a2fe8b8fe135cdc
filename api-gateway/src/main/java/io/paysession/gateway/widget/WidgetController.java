package io.paysession.gateway.widget;

import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Serves the widget: {@code card-tokenizer.js} and {@code card-tokenizer.css} for the partner's page, and the
 * frame ({@code /widget/frame}, its script and styles) that holds the card number field. The frame may be
 * embedded by any page ({@code frame-ancestors *}: partners' pages are not known in advance) and runs only the
 * service's own script; its messages go to the origin named in its address only.
 */
@RestController
public class WidgetController {

    static final String FRAME_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";
    private static final int MAX_TEXT_LENGTH = 200;
    private static final MediaType JAVASCRIPT = new MediaType("text", "javascript", StandardCharsets.UTF_8);
    private static final MediaType CSS = new MediaType("text", "css", StandardCharsets.UTF_8);
    private static final CacheControl ASSET_CACHING = CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic();
    /** The partner's page loads the first two; the frame and the demo page load their own. */
    private static final Map<String, MediaType> ASSETS = Map.of(
            "card-tokenizer.js", JAVASCRIPT, "card-tokenizer.css", CSS,
            "frame.js", JAVASCRIPT, "frame.css", CSS, "demo.js", JAVASCRIPT, "demo.css", CSS);

    private final Map<String, String> contents;

    public WidgetController() {
        this.contents = ASSETS.keySet().stream().collect(Collectors.toUnmodifiableMap(name -> name, WidgetController::read));
    }

    @GetMapping("/widget/{name:[a-z-]+\\.(?:js|css)}")
    public ResponseEntity<String> asset(@PathVariable String name) {
        String content = contents.get(name);
        if (content == null) {
            return WidgetPages.page(404, "Not found", "<p>There is no such file of the widget.</p>", WidgetPages.PAGE_POLICY,
                    "demo.css");
        }
        return ResponseEntity.ok()
                .contentType(ASSETS.get(name))
                .cacheControl(ASSET_CACHING)
                .header("X-Content-Type-Options", "nosniff")
                // lets partners load the files with crossorigin and integrity (subresource integrity)
                .header(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "*")
                .body(content);
    }

    /**
     * The frame. {@code origin} is the embedding page's origin, as the widget's script reads it; the labels are
     * the partner's texts. The public token is not in the address: the page's script posts it to the frame.
     */
    @GetMapping("/widget/frame")
    public ResponseEntity<String> frame(@RequestParam(required = false) String origin,
                                        @RequestParam(name = "card_number_label", required = false) String cardNumberLabel,
                                        @RequestParam(name = "submit_button_label", required = false) String submitButtonLabel) {
        Optional<String> embeddingOrigin = origin(origin);
        if (embeddingOrigin.isEmpty()) {
            return WidgetPages.page(400, "Card number", "<p>The frame needs <code>origin</code>, the origin "
                    + "(scheme, host and port) of the page that embeds it; the widget's script gives it.</p>", FRAME_POLICY,
                    "frame.css");
        }
        String label = text(cardNumberLabel, "Card number");
        String button = text(submitButtonLabel, "Link the card");
        if (label.length() > MAX_TEXT_LENGTH || button.length() > MAX_TEXT_LENGTH) {
            return WidgetPages.page(400, "Card number", "<p>The widget's texts are at most " + MAX_TEXT_LENGTH
                    + " characters long.</p>", FRAME_POLICY, "frame.css");
        }
        String html = "<!DOCTYPE html><html lang=\"en\" data-origin=\"" + HtmlUtils.htmlEscape(embeddingOrigin.get())
                + "\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + HtmlUtils.htmlEscape(label) + "</title><link rel=\"stylesheet\" href=\"frame.css\"></head><body>"
                // no name on the field and form-action 'none': even with its script broken, the form sends nothing
                + "<form id=\"card-form\" novalidate>"
                + "<label for=\"card-number\">" + HtmlUtils.htmlEscape(label) + "</label>"
                + "<div class=\"field\"><input id=\"card-number\" type=\"text\" inputmode=\"numeric\" autocomplete=\"cc-number\""
                + " maxlength=\"23\" spellcheck=\"false\" disabled>"
                + "<span id=\"card-network\" class=\"network\" aria-live=\"polite\"></span></div>"
                + "<p id=\"card-error\" class=\"error\" role=\"alert\"></p>"
                + "<button id=\"card-submit\" type=\"submit\" disabled>" + HtmlUtils.htmlEscape(button) + "</button>"
                + "<p id=\"card-result\" class=\"result\" role=\"status\"></p>"
                + "</form><script src=\"frame.js\"></script></body></html>";
        return WidgetPages.html(200, html, FRAME_POLICY);
    }

    /** An origin as browsers write it ({@code https://shop.example}, {@code http://127.0.0.1:8081}), or empty. */
    static Optional<String> origin(String text) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme();
            if (!("http".equals(scheme) || "https".equals(scheme)) || uri.getHost() == null || uri.getRawUserInfo() != null) {
                return Optional.empty();
            }
            String serialized = scheme + "://" + uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
            return serialized.equals(text) ? Optional.of(text) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static String text(String given, String fallback) {
        return given == null || given.isBlank() ? fallback : given;
    }

    private static String read(String name) {
        try {
            return new String(new ClassPathResource("widget/" + name).getContentAsByteArray(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the widget's " + name + " is missing from the class path", e);
        }
    }
}
