package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.gateway.sandbox.SessionTimeTravel;
import jakarta.servlet.http.HttpServletRequest;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * {@code POST /sandbox/v1/clock/advance {session_id, duration}}: the sandbox's time travel (docs/sandbox.md "Time
 * travel"). A partner moves one session's time forward by an ISO 8601 duration ({@code "PT21M"}, {@code "P5DT1M"}):
 * every time limit of that session sees it, and its timers that fall inside the advance run within seconds. Signed
 * like any partner call ({@link PartnerSignatureFilter}); only in the sandbox (without the sandbox rails the route is
 * not mapped, and answers as any unknown path does). The session must be the partner's ({@code session_not_found},
 * as an unknown one); the duration positive and at most {@link SessionTimeTravel#LONGEST_ADVANCE}
 * ({@code invalid_request}). Not idempotent: each call advances again.
 */
@RestController
@ConditionalOnSandboxRails
public class SandboxClockController {

    public static final String PATH = "/sandbox/v1/clock/advance";
    /** The partner API of the sandbox: signed, and only with the sandbox rails. */
    public static final String PREFIX = "/sandbox/v1";

    private final QueryGateway queries;
    private final SessionTimeTravel timeTravel;

    public SandboxClockController(QueryGateway queries, SessionTimeTravel timeTravel) {
        this.queries = queries;
        this.timeTravel = timeTravel;
    }

    @PostMapping(PATH)
    public ResponseEntity<ObjectNode> advance(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        SessionId sessionId = SessionController.sessionId(body);
        Duration duration = duration(Fields.requiredText(body, "duration", ""));
        SessionView view = SessionController.find(queries, sessionId);
        if (!view.project().equals(partner.project())) {
            // another partner's session is not told apart from one that does not exist
            throw SessionController.notFound();
        }
        SessionTimeTravel.Advanced advanced = timeTravel.advance(sessionId, duration);
        ObjectNode answer = ApiResponses.ok();
        answer.put("session_id", sessionId.value());
        answer.put("advanced_by", duration.toString());
        answer.put("offset", advanced.offset().toString());
        answer.put("session_time", WireFormat.timestamp(advanced.sessionTime()));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    static Duration duration(String text) {
        Duration duration;
        try {
            duration = Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw PaymentsException.invalidRequest("duration must be an ISO 8601 duration in days, hours, minutes and"
                    + " seconds, such as PT21M or P5DT1M");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw PaymentsException.invalidRequest("duration must be positive: time only moves forward");
        }
        if (duration.compareTo(SessionTimeTravel.LONGEST_ADVANCE) > 0) {
            throw PaymentsException.invalidRequest("duration must be at most " + SessionTimeTravel.LONGEST_ADVANCE.toDays()
                    + " days (P30D) in one call");
        }
        return duration;
    }
}
