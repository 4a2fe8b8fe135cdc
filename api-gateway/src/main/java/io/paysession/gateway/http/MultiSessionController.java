package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.InitMultiSessionCommand;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionLimits;
import io.paysession.command.ids.IdGenerator;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code session/multi/init {payment_list: [...], payout_list: [...]}} (the partner SDK's multi-session, v2 and v1):
 * one session holding several payments and payouts, each element of a list an {@code init/payment} or
 * {@code init/payout} request of its own. Both lists are required (either may be empty), with 1 to 10 operations in
 * all; a refusal names the element ({@code payment_list[1]: amount_details is required}). The session is confirmed
 * and cancelled as a whole and its status follows all its operations (docs/decisions.md, "Multi-sessions").
 */
@RestController
public class MultiSessionController {

    private static final List<String> REQUIRED_TO_INIT = List.of("payment_details", "amount_details", "customer");

    private final SessionStates sessions;
    private final IdGenerator ids;
    private final PaymentRequests payments;
    private final PayoutRequests payouts;

    public MultiSessionController(SessionStates sessions, IdGenerator ids, PaymentRequests payments,
                                  PayoutRequests payouts) {
        this.sessions = sessions;
        this.ids = ids;
        this.payments = payments;
        this.payouts = payouts;
    }

    @PostMapping("/api/{version}/session/multi/init")
    public ResponseEntity<ObjectNode> init(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        JsonNode paymentList = list(body, "payment_list");
        JsonNode payoutList = list(body, "payout_list");
        int operations = paymentList.size() + payoutList.size();
        if (operations == 0 || operations > SessionLimits.MAX_OPERATIONS_PER_SESSION) {
            throw PaymentsException.invalidRequest("a multi-session holds 1 to "
                    + SessionLimits.MAX_OPERATIONS_PER_SESSION + " payments and payouts in all");
        }
        List<InitMultiSessionCommand.PaymentStart> starts = new ArrayList<>();
        for (int i = 0; i < paymentList.size(); i++) {
            ObjectNode element = element(paymentList, i, "payment_list");
            String path = "payment_list[" + i + "]";
            PaymentData payment = named(path, () -> {
                Submerchants.check(request, element);
                REQUIRED_TO_INIT.stream().filter(field -> !Fields.isPresent(element, field)).findFirst()
                        .ifPresent(field -> {
                            throw Fields.missing(field);
                        });
                return payments.read(element, partner.project());
            });
            starts.add(new InitMultiSessionCommand.PaymentStart(ids.nextPaymentId(), payment));
        }
        List<InitMultiSessionCommand.PayoutStart> payoutStarts = new ArrayList<>();
        for (int i = 0; i < payoutList.size(); i++) {
            ObjectNode element = element(payoutList, i, "payout_list");
            String path = "payout_list[" + i + "]";
            PayoutData payout = named(path, () -> {
                Submerchants.check(request, element);
                if (!PayoutRequests.hasPayoutDetails(element)) {
                    throw Fields.missing(api.payoutDetailsName());
                }
                return payouts.read(element, partner.project(), api);
            });
            payoutStarts.add(new InitMultiSessionCommand.PayoutStart(ids.nextPayoutId(), payout));
        }
        SessionId sessionId = ids.nextSessionId();
        return ApiResponses.session(sessions.runAndRead(sessionId, new InitMultiSessionCommand(sessionId,
                partner.project(), api, starts, payoutStarts, partner.settings().terms(),
                partner.settings().payoutFromBalance())), api);
    }

    private static JsonNode list(ObjectNode body, String name) {
        JsonNode list = body.get(name);
        if (list == null || list.isNull()) {
            throw Fields.missing(name);
        }
        if (!list.isArray()) {
            throw PaymentsException.invalidRequest(name + " must be an array");
        }
        return list;
    }

    private static ObjectNode element(JsonNode list, int index, String name) {
        if (!(list.get(index) instanceof ObjectNode element)) {
            throw PaymentsException.invalidRequest(name + "[" + index + "] must be an object");
        }
        return element;
    }

    /** Runs {@code read}, a refusal naming the element it is about. */
    private static <T> T named(String path, Supplier<T> read) {
        try {
            return read.get();
        } catch (PaymentsException refusal) {
            throw new PaymentsException(refusal.code(), path + ": " + refusal.description());
        }
    }
}
