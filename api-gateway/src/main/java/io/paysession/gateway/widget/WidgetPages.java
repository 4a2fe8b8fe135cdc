package io.paysession.gateway.widget;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.nio.charset.StandardCharsets;

/**
 * The HTML answers of the widget's pages, each with its Content-Security-Policy and never cached. The pages come
 * from the templates under {@code templates/widget/}, compiled once at start; Mustache escapes every value.
 */
final class WidgetPages {

    /** A page of its own: the service's scripts and styles only, framed by nobody. */
    static final String PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private WidgetPages() {
    }

    static ResponseEntity<String> html(int status, String html, String policy) {
        return ResponseEntity.status(status)
                .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noStore())
                .header("Content-Security-Policy", policy)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .body(html);
    }
}
