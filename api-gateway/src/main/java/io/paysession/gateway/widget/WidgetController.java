package io.paysession.gateway.widget;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
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
            "frame.js", JAVASCRIPT, "frame.css", CSS, "demo.js", JAVASCRIPT, "demo.css", CSS,
            "pay.js", JAVASCRIPT, "pay.css", CSS, "payout.js", JAVASCRIPT);

    private final Map<String, String> contents;
    private final Template notFound;
    private final Template frame;
    private final Template frameRefused;

    public WidgetController(Mustache.Compiler templates) {
        this.contents = ASSETS.keySet().stream().collect(Collectors.toUnmodifiableMap(name -> name, WidgetController::read));
        this.notFound = templates.loadTemplate("widget/not-found");
        this.frame = templates.loadTemplate("widget/frame");
        this.frameRefused = templates.loadTemplate("widget/frame-refused");
    }

    private record NotFound(String title, List<String> stylesheets) {
    }

    private record Frame(String origin, String cardNumberLabel, String submitButtonLabel) {
    }

    private record FrameRefused(String title, List<String> stylesheets, boolean withoutOrigin, boolean textTooLong,
                                int maxTextLength) {
    }

    @GetMapping("/widget/{name:[a-z-]+\\.(?:js|css)}")
    public ResponseEntity<String> asset(@PathVariable String name) {
        String content = contents.get(name);
        if (content == null) {
            return WidgetPages.html(404, notFound.execute(new NotFound("Not found", List.of("demo.css"))),
                    WidgetPages.PAGE_POLICY);
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
            return refused(true, false);
        }
        String label = text(cardNumberLabel, "Card number");
        String button = text(submitButtonLabel, "Link the card");
        if (label.length() > MAX_TEXT_LENGTH || button.length() > MAX_TEXT_LENGTH) {
            return refused(false, true);
        }
        String html = frame.execute(new Frame(embeddingOrigin.get(), label, button));
        return WidgetPages.html(200, html, FRAME_POLICY);
    }

    private ResponseEntity<String> refused(boolean withoutOrigin, boolean textTooLong) {
        return WidgetPages.html(400, frameRefused.execute(new FrameRefused("Card number", List.of("frame.css"),
                withoutOrigin, textTooLong, MAX_TEXT_LENGTH)), FRAME_POLICY);
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
