package io.paysession.gateway.widget;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.vault.PublicTokens;
import io.paysession.gateway.http.Fields;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;

/**
 * The instant-payment payout widget's public tokens ({@code api/v1/token} with {@code fps_no_account_widget}): each
 * stands for one payout session of its project, created with {@code session/create} with the amount, the recipient
 * and {@code bank_account.system_type} {@code faster_payment_system} without the payee's phone and bank, which the
 * payee gives on the service's page ({@code /widget/payout}); the token then follows the payout until it expires.
 */
@Component
public class FpsPayoutWidgets {

    static final String KIND = "fps_payout";
    private static final Set<String> LOCALES = Set.of("en", "ru");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PublicTokens tokens;
    private final EventStore events;

    public FpsPayoutWidgets(PublicTokens tokens, EventStore events) {
        this.tokens = tokens;
        this.events = events;
    }

    /** What the page shows. */
    public record Settings(String sessionId, long amount, String currency, String locale) {
    }

    /** A live token of the widget: its project and settings, and whether its payout was started. */
    public record Grant(String project, Settings settings, boolean used) {
    }

    public String issue(PartnerView partner, ObjectNode widget, SessionView session) {
        String path = "fps_no_account_widget";
        if (session == null) {
            throw new PaymentsException(ErrorCode.SESSION_NOT_FOUND, "Session not found");
        }
        if (!session.project().equals(partner.project())) {
            throw new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The session belongs to another project");
        }
        if (session.status() != SessionStatus.CREATED || !session.payments().isEmpty() || !session.payouts().isEmpty()) {
            throw PaymentsException.wrongState("The payout widget starts the payout of a session made with "
                    + "session/create that has none yet; this one is " + session.status().wireName());
        }
        PayoutData draft = draftOf(session.id());
        if (draft == null || draft.isEmpty() || draft.method() != null || draft.amount() == null) {
            throw PaymentsException.invalidRequest(path + ".session_id must name a session created with amount_details "
                    + "and payout details of type bank_account, system_type faster_payment_system, without the payee's "
                    + "phone and bank");
        }
        String locale = Fields.text(widget, "locale", path).orElse("en");
        if (!LOCALES.contains(locale)) {
            throw PaymentsException.invalidRequest(path + ".locale must be en or ru");
        }
        Settings settings = new Settings(session.id(), draft.amount().minorUnits(), draft.amount().currencyCode(),
                locale);
        return tokens.issueForSession(partner.project(), KIND, session.id(), JSON.valueToTree(settings).toString());
    }

    public Optional<Grant> grant(String token) {
        return tokens.sessionGrant(token, KIND).map(grant -> {
            try {
                return new Grant(grant.project(), JSON.readValue(grant.settings(), Settings.class), grant.used());
            } catch (IOException e) {
                throw new IllegalStateException("the settings of a widget token are not readable", e);
            }
        });
    }

    public boolean use(String token) {
        return tokens.useForSession(token, KIND);
    }

    public void giveBack(String token) {
        tokens.giveBack(token, KIND);
    }

    private PayoutData draftOf(String sessionId) {
        return events.readEvents(sessionId).asStream().map(message -> message.getPayload())
                .filter(SessionCreatedEvent.class::isInstance).map(SessionCreatedEvent.class::cast)
                .findFirst().map(SessionCreatedEvent::payoutDraft).orElse(null);
    }
}
