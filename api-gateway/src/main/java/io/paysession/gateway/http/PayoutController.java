package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.InitPayoutCommand;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.StartPayoutCommand;
import io.paysession.command.ids.IdGenerator;
import io.paysession.command.rails.FpsBankDirectory;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Payouts ({@code session/init/payout}, {@code session/start/payout}), the instant-payment recipient
 * verification ({@code fps/customer_verification}, a free payout confirmed at once) and the instant-payment
 * banks, in {@code /api/v1} and {@code /api/v2}.
 */
@RestController
@RequestMapping("/api/{version}")
public class PayoutController {

    private final SessionStates sessions;
    private final IdGenerator ids;
    private final PayoutRequests payouts;
    private final FpsBankDirectory directory;

    public PayoutController(SessionStates sessions, IdGenerator ids, PayoutRequests payouts,
                            FpsBankDirectory directory) {
        this.sessions = sessions;
        this.ids = ids;
        this.payouts = payouts;
        this.directory = directory;
    }

    @PostMapping("/session/init/payout")
    public ResponseEntity<ObjectNode> initPayout(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        if (!PayoutRequests.hasPayoutDetails(body)) {
            throw Fields.missing(api.payoutDetailsName());
        }
        Submerchants.check(request, body);
        PayoutData payout = payouts.read(body, partner.project(), api);
        SessionId sessionId = ids.nextSessionId();
        return ApiResponses.session(sessions.runAndRead(sessionId, new InitPayoutCommand(sessionId, ids.nextPayoutId(),
                partner.project(), api, payout, partner.settings().payoutFromBalance())), api);
    }

    @PostMapping("/session/start/payout")
    public ResponseEntity<ObjectNode> startPayout(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        SessionId sessionId = SessionController.sessionId(body);
        Submerchants.check(request, body);
        PayoutData payout = payouts.read(body, partner.project(), api);
        return ApiResponses.session(sessions.runAndRead(sessionId, new StartPayoutCommand(sessionId, ids.nextPayoutId(),
                partner.project(), payout, partner.settings().payoutFromBalance())), api);
    }

    /** Free, confirmed automatically: the response shows the payout in progress, the webhook its outcome. */
    @PostMapping("/fps/customer_verification")
    public ResponseEntity<ObjectNode> verifyRecipient(@PathVariable String version, HttpServletRequest request) {
        ApiVersion api = SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        SessionId sessionId = SessionController.sessionId(body);
        if (!PayoutRequests.hasPayoutDetails(body)) {
            throw Fields.missing(api.payoutDetailsName());
        }
        Fields.requiredObject(body, "participant_details", "");
        PayoutData payout = payouts.read(body, partner.project(), api);
        if (!(payout.method() instanceof PayoutMethod.FasterPaymentVerification)) {
            throw PaymentsException.invalidRequest(api.payoutDetailsName()
                    + ".bank_account.system_type must be faster_payment_system_verification");
        }
        return ApiResponses.session(sessions.runAndRead(sessionId, new StartPayoutCommand(sessionId, ids.nextPayoutId(),
                partner.project(), payout)), api);
    }

    @GetMapping("/fps/banks")
    public ResponseEntity<ObjectNode> banks(@PathVariable String version, HttpServletRequest request) {
        SessionController.version(version);
        SessionController.partner(request); // the signature filter let it through: never answered without one
        ObjectNode body = ApiResponses.ok();
        ArrayNode banks = body.putArray("banks");
        directory.banks().forEach(bank -> banks.addObject()
                .put("id", bank.id()).put("eng_name", bank.englishName()).put("ru_name", bank.russianName()));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
