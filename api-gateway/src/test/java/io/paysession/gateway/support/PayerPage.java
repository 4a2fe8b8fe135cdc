package io.paysession.gateway.support;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hosted payer page as a browser uses it: opened at the address of {@code customer_interaction}, answered by
 * posting one of its forms (with the form's hidden token) from the page's own origin.
 */
public final class PayerPage {

    private static final Pattern FORM_TOKEN = Pattern.compile("name=\"form_token\" value=\"([^\"]*)\"");

    private PayerPage() {
    }

    /** The page, fetched from the service at {@code baseUrl} (the address may name another host for it). */
    public static Answer open(String baseUrl, String pageUrl) {
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl + URI.create(pageUrl).getPath()))
                .GET().build());
    }

    /** The token the page's forms carry. */
    public static String formToken(Answer page) {
        Matcher token = FORM_TOKEN.matcher(page.text());
        assertThat(token.find()).as("the page has a form with its token: " + page.text()).isTrue();
        return token.group(1);
    }

    /** What a browser sends when the payer presses Approve or Decline on the page: the form, from its origin. */
    public static Answer answerInBrowser(String baseUrl, String pageUrl, boolean approve) {
        String token = formToken(open(baseUrl, pageUrl));
        return post(baseUrl, pageUrl, approve, Map.of("Content-Type", "application/x-www-form-urlencoded",
                "Origin", baseUrl), "form_token=" + token);
    }

    /** A POST to the page's approve or decline address with exactly these headers and body. */
    public static Answer post(String baseUrl, String pageUrl, boolean approve, Map<String, String> headers, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + URI.create(pageUrl).getPath()
                        + (approve ? "/approve" : "/decline")))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return TestPartner.exchange(request.build());
    }
}
