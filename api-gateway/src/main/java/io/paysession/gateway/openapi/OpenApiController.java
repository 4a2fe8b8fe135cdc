package io.paysession.gateway.openapi;

import io.paysession.gateway.infra.Webjars;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;

/**
 * The API's description for partners and operators: {@code /openapi/partner.json} (the partner calls of
 * {@code /api/v1}, {@code /api/v2} and {@code /cds/v1}, and the webhooks), {@code /openapi/admin.json} (the admin
 * API), and {@code /docs}, both rendered by Swagger UI from its webjar in the service's own jar (no CDN). No
 * authentication: the documents hold no secret, like the public key they describe.
 */
@RestController
public class OpenApiController {

    private static final String SWAGGER_UI = "/webjars/swagger-ui/" + Webjars.version("org.webjars", "swagger-ui") + "/";
    private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'";

    private final String partner = OpenApiDocuments.json(OpenApiDocuments.PARTNER);
    private final String admin = OpenApiDocuments.json(OpenApiDocuments.ADMIN);

    @GetMapping("/openapi/partner.json")
    public ResponseEntity<String> partner() {
        return json(partner);
    }

    @GetMapping("/openapi/admin.json")
    public ResponseEntity<String> admin() {
        return json(admin);
    }

    @GetMapping({"/docs", "/docs/"})
    public ResponseEntity<String> page() {
        String html = """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                  <meta charset="utf-8">
                  <title>Payment Session Service: API reference</title>
                  <link rel="stylesheet" href="%sswagger-ui.css">
                </head>
                <body>
                  <div id="reference"></div>
                  <script src="%sswagger-ui-bundle.js"></script>
                  <script src="%sswagger-ui-standalone-preset.js"></script>
                  <script src="/docs/reference.js"></script>
                </body>
                </html>
                """.formatted(SWAGGER_UI, SWAGGER_UI, SWAGGER_UI);
        return page(MediaType.TEXT_HTML, html);
    }

    /** Swagger UI's start, a file of its own so that the page's policy allows no inline script. */
    @GetMapping("/docs/reference.js")
    public ResponseEntity<String> script() {
        String script = """
                window.ui = SwaggerUIBundle({
                  urls: [
                    { url: "/openapi/partner.json", name: "Partner API (v1, v2, cds/v1) and webhooks" },
                    { url: "/openapi/admin.json", name: "Admin API" }
                  ],
                  dom_id: "#reference",
                  deepLinking: true,
                  supportedSubmitMethods: [],
                  validatorUrl: null,
                  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
                  layout: "StandaloneLayout"
                });
                """;
        return page(MediaType.valueOf("text/javascript"), script);
    }

    private static ResponseEntity<String> json(String body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).cacheControl(CacheControl.noCache())
                .header("Access-Control-Allow-Origin", "*").body(body);
    }

    private static ResponseEntity<String> page(MediaType type, String body) {
        return ResponseEntity.ok().contentType(new MediaType(type, StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noCache())
                .header("Content-Security-Policy", POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .body(body);
    }
}
