package io.paysession.gateway.widget;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.StartPayoutCommand;
import io.paysession.api.session.view.PayoutView;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.ids.IdGenerator;
import io.paysession.command.rails.FpsBankDirectory;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.Fields;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.http.PartnerSignatureFilter;
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

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The instant-payment payout widget: a page the partner sends the payee to ({@code /widget/payout#<public token>}),
 * where the payee chooses their bank and gives their phone, and the session's payout to the instant-payment system
 * starts with them; the partner confirms on {@code ready_to_confirm} as for any payout. The page calls, with the
 * token in {@code X-PUBLIC-TOKEN}: {@code GET /cds/v1/fps-payout/session} (the amount, the banks while the form is
 * shown, and where the payout stands: {@code form}, {@code processing}, {@code succeeded}, {@code failed} with the
 * code) and {@code POST /cds/v1/fps-payout/start {phone, bank_id}}, once.
 */
@RestController
public class FpsPayoutWidgetController {

    private static final Pattern PHONE = Pattern.compile("\\+?[0-9]{10,15}");

    private final FpsPayoutWidgets widgets;
    private final QueryGateway queries;
    private final SessionStates sessions;
    private final IdGenerator ids;
    private final PartnerDirectory partners;
    private final FpsBankDirectory banks;
    private final Template page;

    public FpsPayoutWidgetController(FpsPayoutWidgets widgets, QueryGateway queries, SessionStates sessions,
                                     IdGenerator ids, PartnerDirectory partners, FpsBankDirectory banks,
                                     Mustache.Compiler templates) {
        this.widgets = widgets;
        this.queries = queries;
        this.sessions = sessions;
        this.ids = ids;
        this.partners = partners;
        this.banks = banks;
        this.page = templates.loadTemplate("widget/payout");
    }

    private record Page(String title, List<String> stylesheets) {
    }

    @GetMapping("/widget/payout")
    public ResponseEntity<String> page() {
        return WidgetPages.html(200, page.execute(new Page("Payout", List.of("pay.css"))),
                AcquiringWidgetController.PAGE_POLICY);
    }

    @GetMapping(PartnerSignatureFilter.FPS_PAYOUT_SESSION_PATH)
    public ResponseEntity<ObjectNode> session(HttpServletRequest request, HttpServletResponse response) {
        response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
        FpsPayoutWidgets.Grant grant = grant(request);
        SessionView view = SessionController.find(queries, SessionId.of(grant.settings().sessionId()));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(state(grant, view));
    }

    @PostMapping(PartnerSignatureFilter.FPS_PAYOUT_START_PATH)
    public ResponseEntity<ObjectNode> start(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
        FpsPayoutWidgets.Grant grant = grant(request);
        if (grant.used()) {
            throw PaymentsException.wrongState("This payout was already started; follow it with "
                    + PartnerSignatureFilter.FPS_PAYOUT_SESSION_PATH);
        }
        ObjectNode given = JsonBodies.readObject(RequestBodies.readOrRefuse(request));
        String phone = Fields.requiredText(given, "phone", "");
        if (!PHONE.matcher(phone).matches()) {
            throw PaymentsException.invalidRequest("phone must be 10 to 15 digits");
        }
        String bank = Fields.requiredText(given, "bank_id", "");
        if (banks.banks().stream().noneMatch(known -> known.id().equals(bank))) {
            throw PaymentsException.invalidRequest("bank_id is not a bank of the instant-payment system");
        }
        PartnerView partner = partners.find(grant.project()).orElseThrow(() ->
                new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The widget's partner is no longer registered"));
        SessionId sessionId = SessionId.of(grant.settings().sessionId());
        String token = request.getHeader(PublicTokenHeader.NAME);
        if (!widgets.use(token)) {
            throw PaymentsException.wrongState("This payout was already started");
        }
        SessionView view;
        try {
            request.setAttribute(RequestMetadata.PROJECT_ATTRIBUTE, partner.project());
            PayoutData payout = new PayoutData(new PayoutMethod.FasterPayment(phone.replace("+", ""), bank, null),
                    null, null, null, null);
            view = sessions.runAndRead(sessionId, new StartPayoutCommand(sessionId, ids.nextPayoutId(),
                    partner.project(), payout, partner.settings().payoutFromBalance()));
        } catch (RuntimeException refused) {
            widgets.giveBack(token);
            throw refused;
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(state(new FpsPayoutWidgets.Grant(grant.project(), grant.settings(), true), view));
    }

    private ObjectNode state(FpsPayoutWidgets.Grant grant, SessionView view) {
        ObjectNode answer = ApiResponses.ok();
        answer.putObject("amount_details").put("amount", grant.settings().amount())
                .put("currency", grant.settings().currency());
        answer.put("locale", grant.settings().locale());
        PayoutView payout = view.payouts().isEmpty() ? null : view.payouts().get(0);
        String state;
        if (payout == null) {
            state = view.status() == SessionStatus.CANCELLED ? "failed" : grant.used() ? "processing" : "form";
        } else {
            state = switch (payout.state()) {
                case SUCCEEDED -> "succeeded";
                case FAILED, ERROR -> "failed";
                default -> "processing";
            };
            if (state.equals("failed") && payout.error() != null) {
                answer.put("error_code", payout.error().code().code());
            }
        }
        if (state.equals("failed") && payout == null && view.error() != null) {
            answer.put("error_code", view.error().code().code());
        }
        answer.put("state", state);
        if (state.equals("form")) {
            ArrayNode list = answer.putArray("banks");
            banks.banks().forEach(bank -> list.addObject().put("id", bank.id())
                    .put("name", grant.settings().locale().equals("ru") ? bank.russianName() : bank.englishName()));
        }
        return answer;
    }

    private FpsPayoutWidgets.Grant grant(HttpServletRequest request) {
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
