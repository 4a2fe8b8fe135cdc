package io.paysession.gateway.widget;

import io.paysession.command.vault.PublicTokens;
import io.paysession.gateway.partners.DemoPartner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

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
    private static final String HOW_TO_GET_A_TOKEN = " Ask for one with a signed <code>POST /api/v1/token</code>, body "
            + "<code>{\"tokenize_widget\":{\"access\":true}}</code>, and open "
            + "<code>/widget/demo?public_token=&lt;public_token&gt;</code>.";

    private final Optional<String> demoProject;
    private final PublicTokens publicTokens;

    public WidgetDemoController(DemoPartner demoPartner, PublicTokens publicTokens, Environment environment) {
        // the production profile switches the demo partner off; this keeps the page from issuing there regardless
        this.demoProject = environment.acceptsProfiles(Profiles.of("production")) ? Optional.empty() : demoPartner.project();
        this.publicTokens = publicTokens;
    }

    @GetMapping("/widget/demo")
    public ResponseEntity<String> demo(@RequestParam(name = "public_token", required = false) String given) {
        if (given != null && !given.isEmpty()) {
            if (!PUBLIC_TOKEN.matcher(given).matches()) {
                return page(400, "That is not a public token: it is 64 hexadecimal characters, as "
                        + "<code>POST /api/v1/token</code> answers it." + HOW_TO_GET_A_TOKEN, null);
            }
            return page(200, "With the public token from the address.", given);
        }
        if (demoProject.isPresent()) {
            return page(200, "With a public token just issued for the demo partner <code>"
                    + HtmlUtils.htmlEscape(demoProject.get()) + "</code>: the card token it yields pays out with that "
                    + "partner's key (README, \"Try it by hand\"). Reload the page for a new token.",
                    publicTokens.issue(demoProject.get(), "en"));
        }
        return page(200, "This page needs a public token of your project." + HOW_TO_GET_A_TOKEN, null);
    }

    /** The demo page: a notice, and the widget with its handler calls when there is a public token. */
    private static ResponseEntity<String> page(int status, String notice, String publicToken) {
        String body = "<main class=\"demo\"><h1>Card-tokenizer widget</h1><p id=\"notice\">" + notice + "</p>";
        if (publicToken == null) {
            return WidgetPages.page(status, TITLE, body + "</main>", WidgetPages.PAGE_POLICY, "demo.css");
        }
        body += "<div id=\"card-tokenizer\" data-public-token=\"" + publicToken + "\"></div>"
                + "<h2>Handler calls</h2><pre id=\"events\"></pre>"
                + "<p>Test cards: <code>4242424242424242</code>, <code>5555555555554444</code>, "
                + "<code>2200000000000004</code>; a number failing the Luhn check is refused in the form.</p>"
                + "</main><script src=\"card-tokenizer.js\"></script><script src=\"demo.js\"></script>";
        return WidgetPages.page(status, TITLE, body, WidgetPages.PAGE_POLICY, "card-tokenizer.css", "demo.css");
    }
}
