package io.paysession.gateway.widget;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.view.PaymentView;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.ids.IdGenerator;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.Fields;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.http.PartnerSignatureFilter;
import io.paysession.gateway.http.PaymentRequests;
import io.paysession.gateway.http.RequestBodies;
import io.paysession.gateway.http.RequestMetadata;
import io.paysession.gateway.http.SessionController;
import io.paysession.gateway.http.SessionStates;
import io.paysession.gateway.partners.PartnerDirectory;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import java.io.IOException;
import java.util.List;

/**
 * The acquiring widget: a hosted payment form the partner links to or frames ({@code /widget/pay}, the public token
 * in the address's fragment, which no server sees), on which the payer pays the token's session with a card. The
 * form calls, with the token in {@code X-PUBLIC-TOKEN} and no partner signature:
 * <ul>
 * <li>{@code GET /cds/v1/acquiring/session}: the amount, the form's settings, and where the payment stands
 * ({@code form}, {@code processing}, {@code action_required} with the 3-D Secure page's address, {@code succeeded},
 * {@code failed} with the code), with the partner's return address once it ended;</li>
 * <li>{@code POST /cds/v1/acquiring/pay {card {number, expiration_month, expiration_year, security_code},
 * recurrent}}: starts the session's payment with the card, as {@code session/start/payment} with {@code bank_card}
 * would (the card goes to the vault, the partner never sees it); the token is spent on it. The partner confirms on
 * {@code ready_to_confirm} as for any payment; 3-D Secure runs on its hosted page, which returns the payer here.</li>
 * </ul>
 */
@RestController
public class AcquiringWidgetController {

    public static final String SESSION_PATH = PartnerSignatureFilter.ACQUIRING_SESSION_PATH;
    public static final String PAY_PATH = PartnerSignatureFilter.ACQUIRING_PAY_PATH;
    static final String PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";

    private final AcquiringWidgets widgets;
    private final QueryGateway queries;
    private final SessionStates sessions;
    private final IdGenerator ids;
    private final PaymentRequests payments;
    private final PartnerDirectory partners;
    private final Template page;

    public AcquiringWidgetController(AcquiringWidgets widgets, QueryGateway queries, SessionStates sessions,
                                     IdGenerator ids, PaymentRequests payments, PartnerDirectory partners,
                                     Mustache.Compiler templates) {
        this.widgets = widgets;
        this.queries = queries;
        this.sessions = sessions;
        this.ids = ids;
        this.payments = payments;
        this.partners = partners;
        this.page = templates.loadTemplate("widget/pay");
    }

    private record Page(String title, List<String> stylesheets) {
    }

    @GetMapping("/widget/pay")
    public ResponseEntity<String> page() {
        return WidgetPages.html(200, page.execute(new Page("Payment", List.of("pay.css"))), PAGE_POLICY);
    }

    @GetMapping(SESSION_PATH)
    public ResponseEntity<ObjectNode> session(HttpServletRequest request, HttpServletResponse response) {
        response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
        AcquiringWidgets.Grant grant = grant(request);
        SessionView view = SessionController.find(queries, SessionId.of(grant.settings().sessionId()));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(state(grant, view));
    }

    @PostMapping(PAY_PATH)
    public ResponseEntity<ObjectNode> pay(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
        AcquiringWidgets.Grant grant = grant(request);
        if (grant.used()) {
            throw PaymentsException.wrongState("This payment was already started; follow it with " + SESSION_PATH);
        }
        ObjectNode given = JsonBodies.readObject(RequestBodies.readOrRefuse(request));
        ObjectNode card = Fields.requiredObject(given, "card", "");
        boolean recurrent = grant.settings().showRecurrentCheckbox() && given.path("recurrent").asBoolean(false);
        PartnerView partner = partners.find(grant.project()).orElseThrow(() ->
                new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The widget's partner is no longer registered"));
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ObjectNode details = body.putObject("payment_details").put("type", "card");
        details.putObject("card").put("type", "bank_card").set("bank_card", card);
        ObjectNode options = body.putObject("payment_options")
                .put("return_url", ServletUriComponentsBuilder.fromContextPath(request).path("/widget/pay").toUriString());
        if (recurrent) {
            options.put("recurrent", true);
        }
        PaymentData payment = payments.read(body, partner.project());
        SessionId sessionId = SessionId.of(grant.settings().sessionId());
        String token = request.getHeader(PublicTokenHeader.NAME);
        if (!widgets.use(token)) {
            throw PaymentsException.wrongState("This payment was already started; follow it with " + SESSION_PATH);
        }
        SessionView view;
        try {
            request.setAttribute(RequestMetadata.PROJECT_ATTRIBUTE, partner.project());
            view = sessions.runAndRead(sessionId, new StartPaymentCommand(sessionId, ids.nextPaymentId(),
                    partner.project(), payment, partner.settings().terms()));
        } catch (RuntimeException refused) {
            widgets.giveBack(token);
            throw refused;
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(state(new AcquiringWidgets.Grant(grant.project(), grant.settings(), true), view));
    }

    /** Where the payment stands, as the form shows it. */
    private static ObjectNode state(AcquiringWidgets.Grant grant, SessionView view) {
        AcquiringWidgets.Settings settings = grant.settings();
        ObjectNode answer = ApiResponses.ok();
        answer.putObject("amount_details").put("amount", settings.amount()).put("currency", settings.currency());
        answer.put("show_recurrent_checkbox", settings.showRecurrentCheckbox());
        answer.put("locale", settings.locale());
        PaymentView payment = view.payments().isEmpty() ? null : view.payments().get(0);
        String state;
        if (payment == null) {
            state = view.status() == SessionStatus.CANCELLED ? "failed" : grant.used() ? "processing" : "form";
        } else {
            state = switch (payment.state()) {
                case SUCCEEDED, CAPTURING, AWAITING_CAPTURE -> "succeeded";
                case FAILED, ERROR -> "failed";
                case AWAITING_PAYER_ACTION -> payment.customerInteraction() instanceof CustomerInteraction.Redirect
                        ? "action_required" : "processing";
                default -> "processing";
            };
            if (state.equals("action_required")) {
                answer.put("action_url", ((CustomerInteraction.Redirect) payment.customerInteraction()).url());
            }
            if (state.equals("failed") && payment.error() != null) {
                answer.put("error_code", payment.error().code().code());
            }
        }
        if (state.equals("failed") && payment == null && view.error() != null) {
            answer.put("error_code", view.error().code().code());
        }
        answer.put("state", state);
        String back = state.equals("succeeded") ? settings.successReturnUrl()
                : state.equals("failed") ? settings.failureReturnUrl() : null;
        if (back != null) {
            answer.put("return_url", back);
        }
        return answer;
    }

    private AcquiringWidgets.Grant grant(HttpServletRequest request) {
        String token = request.getHeader(PublicTokenHeader.NAME);
        if (token == null || token.isBlank()) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, PublicTokenHeader.NAME + " is required");
        }
        if (!PublicTokenHeader.looksLikeAToken(token)) {
            throw PublicTokenHeader.dead();
        }
        return widgets.grant(token).orElseThrow(PublicTokenHeader::dead);
    }

}
