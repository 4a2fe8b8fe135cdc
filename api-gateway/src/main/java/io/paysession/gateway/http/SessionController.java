package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.ApiVersion;
import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.money.Money;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.FindSessionQuery;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.ids.IdGenerator;
import jakarta.servlet.http.HttpServletRequest;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import io.paysession.command.rails.sandbox.SandboxChargebacks;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;

/**
 * The session methods of {@code /api/v1} and {@code /api/v2}. Each command runs to completion and the
 * response shows the session as the command left it; {@code session/status} reads the session view,
 * which the command's own transaction has already updated, so a status right after shows the same.
 */
@RestController
@RequestMapping("/api/{version}/session")
public class SessionController {

    private static final List<String> REQUIRED_TO_INIT = List.of("payment_details", "amount_details", "customer");

    private final SessionStates sessions;
    private final QueryGateway queries;
    private final IdGenerator ids;
    private final PaymentRequests payments;
    private final PayoutRequests payouts;
    private final ObjectProvider<SandboxChargebacks> sandboxChargebacks;

    public SessionController(SessionStates sessions, QueryGateway queries, IdGenerator ids,
                             PaymentRequests payments, PayoutRequests payouts,
                             ObjectProvider<SandboxChargebacks> sandboxChargebacks) {
        this.sessions = sessions;
        this.queries = queries;
        this.ids = ids;
        this.payments = payments;
        this.payouts = payouts;
        this.sandboxChargebacks = sandboxChargebacks;
    }

    @PostMapping("/create")
    public ResponseEntity<ObjectNode> create(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        ObjectNode body = body(request);
        Submerchants.check(request, body);
        boolean payout = PayoutRequests.hasPayoutDetails(body);
        if (payout && Fields.isPresent(body, "payment_details")) {
            throw PaymentsException.invalidRequest("a session holds a payment or a payout: give payment_details or "
                    + api.payoutDetailsName() + ", not both");
        }
        PaymentData draft = payout ? null : payments.read(body, partner.project());
        PayoutData payoutDraft = payout ? payouts.readDraft(body, partner.project(), api) : null;
        SessionId sessionId = ids.nextSessionId();
        return answer(sessionId, api, new CreateSessionCommand(sessionId, partner.project(), api, draft, payoutDraft));
    }

    @PostMapping("/init/payment")
    public ResponseEntity<ObjectNode> initPayment(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        ObjectNode body = body(request);
        Submerchants.check(request, body);
        REQUIRED_TO_INIT.stream().filter(field -> !Fields.isPresent(body, field)).findFirst().ifPresent(field -> {
            throw Fields.missing(field);
        });
        PaymentData payment = payments.read(body, partner.project());
        SessionId sessionId = ids.nextSessionId();
        PaymentId paymentId = ids.nextPaymentId();
        return answer(sessionId, api, new InitPaymentCommand(sessionId, paymentId, partner.project(), api, payment,
                partner.settings().terms()));
    }

    @PostMapping("/start/payment")
    public ResponseEntity<ObjectNode> startPayment(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        ObjectNode body = body(request);
        SessionId sessionId = sessionId(body);
        Submerchants.check(request, body);
        PaymentData payment = payments.read(body, partner.project());
        return answer(sessionId, api, new StartPaymentCommand(sessionId, ids.nextPaymentId(), partner.project(),
                payment, partner.settings().terms()));
    }

    @PostMapping("/confirm")
    public ResponseEntity<ObjectNode> confirm(@PathVariable String version, HttpServletRequest request) {
        return onSession(version, request, ConfirmSessionCommand::new);
    }

    @PostMapping("/cancel")
    public ResponseEntity<ObjectNode> cancel(@PathVariable String version, HttpServletRequest request) {
        return onSession(version, request, CancelSessionCommand::new);
    }

    @PostMapping("/capture")
    public ResponseEntity<ObjectNode> capture(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        ObjectNode body = body(request);
        SessionId sessionId = sessionId(body);
        Money amount = Fields.amountDetails(body, "amount_details", "").orElse(null);
        return answer(sessionId, api, new CaptureSessionCommand(sessionId, partner.project(), amount));
    }

    @PostMapping("/refund")
    public ResponseEntity<ObjectNode> refund(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        ObjectNode body = body(request);
        SessionId sessionId = sessionId(body);
        Money amount = Fields.amountDetails(body, "amount_details", "").orElse(null);
        JsonNode metadata = PaymentRequests.refundMetadata(body);
        return answer(sessionId, api, new RefundSessionCommand(sessionId, ids.nextRefundId(), partner.project(), amount,
                metadata));
    }

    /**
     * {@code session/chargeback {session_id}}, as the partner SDK sends it. A chargeback is the payer's bank's doing,
     * so only the sandbox takes it from the partner, to let a partner try the flow: the session's payment is charged
     * back in full (a refund {@code in_progress} with {@code is_chargeback: true}), and the sandbox acquirer withholds
     * the money after its latency ({@code payment_refunded}). With real rails it is {@code invalid_request}.
     */
    @PostMapping("/chargeback")
    public ResponseEntity<ObjectNode> chargeback(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        SessionId sessionId = sessionId(body(request));
        SandboxChargebacks sandbox = sandboxChargebacks.getIfAvailable();
        if (sandbox == null) {
            throw PaymentsException.invalidRequest("A chargeback is raised by the payer's bank, not by the partner: "
                    + "it reaches you as payment_refunded with is_chargeback");
        }
        RefundId refund = sandbox.withholdLater(sessionId);
        try {
            return answer(sessionId, api, new OpenChargebackCommand(sessionId, refund, partner.project(), null,
                    "Sandbox: session/chargeback", false));
        } catch (RuntimeException refused) {
            sandbox.forget(refund);
            throw refused;
        }
    }

    @PostMapping("/status")
    public ResponseEntity<ObjectNode> status(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        SessionView view = find(sessionId(body(request)));
        if (!view.project().equals(partner.project())) {
            throw new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The session belongs to another project");
        }
        return ApiResponses.session(view, api);
    }

    /** A command that takes nothing but the session and the project. */
    private ResponseEntity<ObjectNode> onSession(String version, HttpServletRequest request,
                                                 BiFunction<SessionId, String, Object> command) {
        ApiVersion api = version(version);
        PartnerView partner = partner(request);
        SessionId sessionId = sessionId(body(request));
        return answer(sessionId, api, command.apply(sessionId, partner.project()));
    }

    private ResponseEntity<ObjectNode> answer(SessionId sessionId, ApiVersion api, Object command) {
        return ApiResponses.session(sessions.runAndRead(sessionId, command), api);
    }

    private SessionView find(SessionId sessionId) {
        return find(queries, sessionId);
    }

    /** The session's view; {@code session_not_found} when there is none. */
    public static SessionView find(QueryGateway queries, SessionId sessionId) {
        try {
            return queries.query(new FindSessionQuery(sessionId), ResponseTypes.optionalInstanceOf(SessionView.class))
                    .join()
                    .orElseThrow(SessionController::notFound);
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    static ApiVersion version(String segment) {
        return ApiVersion.parse(segment).orElseThrow(() ->
                new HttpException(404, ErrorCode.INVALID_REQUEST, "Unknown API version " + segment));
    }

    static PartnerView partner(HttpServletRequest request) {
        Object partner = request.getAttribute(PartnerSignatureFilter.PARTNER_ATTRIBUTE);
        if (!(partner instanceof PartnerView view)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "The request is not authenticated");
        }
        return view;
    }

    static ObjectNode body(HttpServletRequest request) {
        return RequestBodies.json(request);
    }

    static SessionId sessionId(ObjectNode body) {
        String text = Fields.requiredText(body, "session_id", "");
        Optional<SessionId> id = SessionId.parse(text);
        return id.orElseThrow(SessionController::notFound);
    }

    static PaymentsException notFound() {
        return new PaymentsException(ErrorCode.SESSION_NOT_FOUND, "Session not found");
    }
}
