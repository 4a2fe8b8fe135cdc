package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.ids.IdGenerator;
import io.paysession.gateway.audit.AuditArguments;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.Fields;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.http.RequestBodies;
import io.paysession.gateway.http.SessionStates;
import io.paysession.gateway.security.AdminToken;
import io.paysession.api.session.view.SessionRepresentation;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;

/**
 * {@code POST /admin/v1/sessions/{session_id}/chargebacks {amount_details?, reason?}}: the operator records a
 * chargeback the acquirer reported (in its files or its back office), already withheld: the payment shows a refund
 * with {@code is_chargeback: true}, {@code accepted}, the partner gets {@code payment_refunded}, and the
 * reconciliation report a {@code chargeback} line. Without {@code amount_details}, all that is left of the payment.
 * {@code reason} (at most 500 characters) is kept in the event for the audit, not shown to the partner.
 */
@RestController
@RequestMapping("/admin/v1")
public class AdminChargebackController {

    private static final int MAX_REASON = 500;

    private final AdminToken adminToken;
    private final SessionStates sessions;
    private final IdGenerator ids;

    public AdminChargebackController(AdminToken adminToken, SessionStates sessions, IdGenerator ids) {
        this.adminToken = adminToken;
        this.sessions = sessions;
        this.ids = ids;
    }

    @PostMapping("/sessions/{sessionId}/chargebacks")
    public ResponseEntity<ObjectNode> record(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                             @PathVariable String sessionId, HttpServletRequest request)
            throws IOException {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
        SessionId session = AuditArguments.session(sessionId);
        ObjectNode body = RequestBodies.hasBody(request) ? JsonBodies.readObject(RequestBodies.readOrRefuse(request))
                : JsonNodeFactory.instance.objectNode();
        Money amount = Fields.amountDetails(body, "amount_details", "").orElse(null);
        String reason = Fields.text(body, "reason", "").orElse(null);
        if (reason != null && (reason.isBlank() || reason.length() > MAX_REASON)) {
            throw PaymentsException.invalidRequest("reason must be 1 to " + MAX_REASON + " characters");
        }
        SessionView view = sessions.runAndRead(session, new OpenChargebackCommand(session, ids.nextRefundId(), null,
                amount, reason == null ? "Recorded by the operator" : reason, true));
        ObjectNode answer = ApiResponses.ok();
        answer.set("session", SessionRepresentation.render(view, view.apiVersion()));
        return ResponseEntity.status(201).body(answer);
    }
}
