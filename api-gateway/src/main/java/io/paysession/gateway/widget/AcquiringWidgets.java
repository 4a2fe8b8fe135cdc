package io.paysession.gateway.widget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.vault.PublicTokens;
import io.paysession.gateway.http.Fields;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import java.util.Set;

/**
 * The acquiring widget's public tokens ({@code api/v1/token} with {@code acquiring_widget}): each stands for one
 * session of its project, created with {@code session/create} with the amount and the customer and nothing started
 * yet, and lets the payer pay it once with a card on the service's hosted form ({@code /widget/pay}), then follow the
 * payment until the token expires. What the partner asked for (return addresses, the recurrent checkbox, the locale)
 * and the amount shown are kept with the token.
 */
@Component
public class AcquiringWidgets {

    static final String KIND = "acquiring";
    private static final Set<String> LOCALES = Set.of("en", "ru");
    private static final int MAX_URL = 2048;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PublicTokens tokens;
    private final EventStore events;

    public AcquiringWidgets(PublicTokens tokens, EventStore events) {
        this.tokens = tokens;
        this.events = events;
    }

    /** What the form shows and does, as the partner asked when it issued the token. */
    public record Settings(String sessionId, long amount, String currency, String successReturnUrl,
                           String failureReturnUrl, boolean showRecurrentCheckbox, String locale) {
    }

    /** A live token of the widget: its project and settings, and whether its one payment was started. */
    public record Grant(String project, Settings settings, boolean used) {
    }

    /**
     * Issues the token for {@code widget} ({@code acquiring_widget}) of {@code partner}, whose session is
     * {@code session} ({@code null} when there is none).
     */
    public String issue(PartnerView partner, ObjectNode widget, SessionView session) {
        String path = "acquiring_widget";
        if (session == null) {
            throw new PaymentsException(ErrorCode.SESSION_NOT_FOUND, "Session not found");
        }
        if (!session.project().equals(partner.project())) {
            throw new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The session belongs to another project");
        }
        if (session.status() != SessionStatus.CREATED || !session.payments().isEmpty() || !session.payouts().isEmpty()) {
            throw PaymentsException.wrongState("The acquiring widget pays a session made with session/create that has "
                    + "no payment yet; this one is " + session.status().wireName());
        }
        PaymentData draft = draftOf(session.id());
        if (draft == null || draft.amount() == null || draft.customer() == null) {
            throw PaymentsException.invalidRequest(path + ".session_id must name a session created with amount_details "
                    + "and customer");
        }
        String success = url(widget, "success_return_url", path);
        String failure = url(widget, "failure_return_url", path);
        boolean checkbox = flag(widget.get("show_recurrent_checkbox"), path + ".show_recurrent_checkbox");
        String locale = Fields.text(widget, "locale", path).orElse("en");
        if (!LOCALES.contains(locale)) {
            throw PaymentsException.invalidRequest(path + ".locale must be en or ru");
        }
        Settings settings = new Settings(session.id(), draft.amount().minorUnits(), draft.amount().currencyCode(),
                success, failure, checkbox, locale);
        return tokens.issueForSession(partner.project(), KIND, session.id(), JSON.valueToTree(settings).toString());
    }

    /** The live token's grant; empty when it is unknown, expired or not the acquiring widget's. */
    public Optional<Grant> grant(String token) {
        return tokens.sessionGrant(token, KIND).map(grant -> {
            try {
                return new Grant(grant.project(), JSON.readValue(grant.settings(), Settings.class), grant.used());
            } catch (java.io.IOException e) {
                throw new IllegalStateException("the settings of a widget token are not readable", e);
            }
        });
    }

    /** Spends the token on its one payment; false when it was spent already (by a racing request, say). */
    public boolean use(String token) {
        return tokens.useForSession(token, KIND);
    }

    /** The payment the token was spent on was refused before it started: the payer may try again. */
    public void giveBack(String token) {
        tokens.giveBack(token, KIND);
    }

    private PaymentData draftOf(String sessionId) {
        return events.readEvents(sessionId).asStream().map(message -> message.getPayload())
                .filter(SessionCreatedEvent.class::isInstance).map(SessionCreatedEvent.class::cast)
                .findFirst().map(SessionCreatedEvent::paymentDraft).orElse(null);
    }

    private static String url(ObjectNode widget, String name, String path) {
        Optional<String> text = Fields.text(widget, name, path);
        if (text.isEmpty()) {
            return null;
        }
        try {
            URI uri = new URI(text.get());
            if (text.get().length() > MAX_URL || uri.getHost() == null
                    || !("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))) {
                throw PaymentsException.invalidRequest(path + "." + name + " must be an absolute http or https address");
            }
            return text.get();
        } catch (URISyntaxException e) {
            throw PaymentsException.invalidRequest(path + "." + name + " must be an absolute http or https address");
        }
    }

    private static boolean flag(JsonNode node, String path) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isTextual() && (node.textValue().equals("true") || node.textValue().equals("false"))) {
            return Boolean.parseBoolean(node.textValue());
        }
        throw PaymentsException.invalidRequest(path + " must be true or false");
    }
}
