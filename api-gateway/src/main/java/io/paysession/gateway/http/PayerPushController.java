package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.PaymentView;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.rails.PayerPushes;
import jakarta.servlet.http.HttpServletRequest;
import org.axonframework.queryhandling.QueryGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code sberpay/push {phone, session_id}} (production-facts section 7): asks the QR-code application to notify the
 * payer of a payment waiting for them there, and answers {@code {"status":"ok"}} once the provider took it. The
 * session must be the partner's ({@code authorization_error}), its payment a {@code qr_app_pay} one
 * ({@code invalid_request}) waiting for its payer, after {@code action_required} ({@code session_wrong_state}). A
 * push changes nothing in the session and is not an event: a provider that fails or is slow
 * ({@code provider_timeout}) is simply asked again by the partner.
 */
@RestController
public class PayerPushController {

    private static final Logger log = LoggerFactory.getLogger(PayerPushController.class);
    private static final long TIMEOUT_SECONDS = 10;

    private final QueryGateway queries;
    private final ObjectProvider<PayerPushes> pushes;

    public PayerPushController(QueryGateway queries, ObjectProvider<PayerPushes> pushes) {
        this.queries = queries;
        this.pushes = pushes;
    }

    @PostMapping("/api/{version}/sberpay/push")
    public ResponseEntity<ObjectNode> push(@PathVariable String version, HttpServletRequest request) {
        SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        String phone = Fields.requiredText(body, "phone", "");
        if (!Parties.PHONE.matcher(phone).matches()) {
            throw PaymentsException.invalidRequest("phone must be 10 to 15 digits");
        }
        SessionId sessionId = SessionController.sessionId(body);
        SessionView view = SessionController.find(queries, sessionId);
        if (!view.project().equals(partner.project())) {
            throw new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The session belongs to another project");
        }
        PaymentView payment = view.payments().stream()
                .filter(candidate -> candidate.data().method() instanceof QrAppMethod)
                .findFirst()
                .orElseThrow(() -> PaymentsException.invalidRequest("The session has no qr_app_pay payment to push"));
        if (payment.state() != OperationState.AWAITING_PAYER_ACTION) {
            throw PaymentsException.wrongState("The payment " + payment.id() + " does not wait for its payer");
        }
        PayerPushes provider = pushes.getIfAvailable();
        if (provider == null) {
            throw PaymentsException.invalidRequest("Push notifications are not offered by the configured rails");
        }
        try {
            provider.push(sessionId, PaymentId.of(payment.id()), phone.replace("+", "")).toCompletableFuture()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notTaken();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof PaymentsException refusal) {
                throw refusal;
            }
            log.warn("A push for {} failed ({})", payment.id(), e.getCause() == null ? "unknown"
                    : e.getCause().getClass().getName());
            throw notTaken();
        } catch (TimeoutException e) {
            throw notTaken();
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(ApiResponses.ok());
    }

    private static PaymentsException notTaken() {
        return new PaymentsException(ErrorCode.PROVIDER_TIMEOUT,
                "The QR application's provider did not take the notification; ask again");
    }
}
