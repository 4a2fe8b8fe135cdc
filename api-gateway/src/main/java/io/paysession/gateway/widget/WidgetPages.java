package io.paysession.gateway.widget;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.util.HtmlUtils;

import java.nio.charset.StandardCharsets;

/** The HTML answers of the widget's pages, each with its Content-Security-Policy and never cached. */
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

    /** A page with a title, the widget's stylesheets named, and a body of trusted markup (escape what callers give). */
    static ResponseEntity<String> page(int status, String title, String bodyHtml, String policy, String... stylesheets) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + HtmlUtils.htmlEscape(title) + "</title>");
        for (String stylesheet : stylesheets) {
            html.append("<link rel=\"stylesheet\" href=\"").append(stylesheet).append("\">");
        }
        return html(status, html.append("</head><body>").append(bodyHtml).append("</body></html>").toString(), policy);
    }
}
