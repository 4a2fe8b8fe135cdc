package io.paysession.gateway.widget;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import io.paysession.command.vault.PublicTokens;
import io.paysession.gateway.partners.DemoPartner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code /widget/demo}: the widget on a page of the service, for partners to try it. It takes a public token
 * from {@code ?public_token=}; without one, and only while the demo partner is enabled outside the production
 * profile, it issues one for the demo partner itself. The page shares the service's origin, so it shows the
 * widget's look and handlers, not the isolation a partner's own page gets.
 */
@RestController
public class WidgetDemoController {

    private static final Pattern PUBLIC_TOKEN = Pattern.compile("[0-9a-f]{64}");
    private static final String TITLE = "Card-tokenizer widget";

    private final Optional<String> demoProject;
    private final PublicTokens publicTokens;
    private final Template page;

    private enum Notice { MALFORMED_TOKEN, TOKEN_FROM_ADDRESS, ISSUED_FOR_DEMO_PARTNER, TOKEN_NEEDED }

    /** What the template {@code widget/demo} shows: one notice, and the widget when there is a public token. */
    private record DemoPage(Notice notice, String demoProject, String publicToken) {
        String title() {
            return TITLE;
        }

        List<String> stylesheets() {
            return publicToken == null ? List.of("demo.css") : List.of("card-tokenizer.css", "demo.css");
        }

        boolean malformedToken() {
            return notice == Notice.MALFORMED_TOKEN;
        }

        boolean tokenFromAddress() {
            return notice == Notice.TOKEN_FROM_ADDRESS;
        }

        boolean issuedForDemoPartner() {
            return notice == Notice.ISSUED_FOR_DEMO_PARTNER;
        }

        boolean tokenNeeded() {
            return notice == Notice.TOKEN_NEEDED;
        }

        boolean howToGetAToken() {
            return notice == Notice.MALFORMED_TOKEN || notice == Notice.TOKEN_NEEDED;
        }
    }

    public WidgetDemoController(DemoPartner demoPartner, PublicTokens publicTokens, Environment environment,
                                Mustache.Compiler templates) {
        // the production profile switches the demo partner off; this keeps the page from issuing there regardless
        this.demoProject = environment.acceptsProfiles(Profiles.of("production")) ? Optional.empty() : demoPartner.project();
        this.publicTokens = publicTokens;
        this.page = templates.loadTemplate("widget/demo");
    }

    @GetMapping("/widget/demo")
    public ResponseEntity<String> demo(@RequestParam(name = "public_token", required = false) String given) {
        if (given != null && !given.isEmpty()) {
            if (!PUBLIC_TOKEN.matcher(given).matches()) {
                return page(400, new DemoPage(Notice.MALFORMED_TOKEN, null, null));
            }
            return page(200, new DemoPage(Notice.TOKEN_FROM_ADDRESS, null, given));
        }
        if (demoProject.isPresent()) {
            return page(200, new DemoPage(Notice.ISSUED_FOR_DEMO_PARTNER, demoProject.get(),
                    publicTokens.issue(demoProject.get(), "en")));
        }
        return page(200, new DemoPage(Notice.TOKEN_NEEDED, null, null));
    }

    private ResponseEntity<String> page(int status, DemoPage shown) {
        return WidgetPages.html(status, page.execute(shown), WidgetPages.PAGE_POLICY);
    }
}
