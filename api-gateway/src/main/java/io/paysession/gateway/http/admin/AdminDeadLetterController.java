package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.gateway.deadletter.DeadLetterAdministration;
import io.paysession.gateway.deadletter.DeadLetterAdministration.ParkedEvent;
import io.paysession.gateway.deadletter.DeadLetterAdministration.ParkedSession;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.HttpException;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.security.AdminToken;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.regex.Pattern;

/**
 * Parked events for operators (docs/security/processing.md), Bearer admin token:
 * {@code GET /admin/v1/dead-letters} counts per processing group, {@code GET /admin/v1/dead-letters/{group}}
 * lists a group's parked sessions, {@code GET .../{group}/{session}} one session's parked events,
 * {@code POST .../{group}/{session}/retry} and {@code POST .../{group}/retry} handle them again, and
 * {@code POST .../{group}/{session}/drop} with {@code {"reason"}} removes them unhandled (logged with the reason).
 */
@RestController
@RequestMapping("/admin/v1/dead-letters")
public class AdminDeadLetterController {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    static final int MAX_REASON = 500;
    /** An aggregate id: a session id, or {@code partner:<project>}. */
    private static final Pattern SEQUENCE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}");
    /** A run of digits as long as a card number: an operator's note has no business carrying one. */
    private static final Pattern DIGIT_RUN = Pattern.compile("[0-9][0-9 -]{10,}[0-9]");

    private final AdminToken adminToken;
    private final DeadLetterAdministration deadLetters;

    public AdminDeadLetterController(AdminToken adminToken, DeadLetterAdministration deadLetters) {
        this.adminToken = adminToken;
        this.deadLetters = deadLetters;
    }

    @GetMapping
    public ResponseEntity<ObjectNode> summary(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        requireAdmin(authorization);
        ObjectNode body = ApiResponses.ok();
        ArrayNode groups = body.putArray("processing_groups");
        for (String group : deadLetters.processingGroups()) {
            DeadLetterAdministration.Summary summary = deadLetters.summary(group);
            groups.addObject().put("name", group).put("sessions", summary.sessions()).put("events", summary.events());
        }
        return AdminAnswers.ok(body);
    }

    @GetMapping("/{group}")
    public ResponseEntity<ObjectNode> sessions(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                               @PathVariable String group,
                                               @RequestParam(name = "limit", required = false) String limit) {
        requireAdmin(authorization);
        String known = groupOf(group);
        ObjectNode body = ApiResponses.ok();
        body.put("processing_group", known);
        ArrayNode sessions = body.putArray("sessions");
        deadLetters.sessions(known, limit == null ? DEFAULT_LIMIT : AdminAnswers.limitOf(limit, MAX_LIMIT))
                .forEach(session -> sessions.add(render(session)));
        return AdminAnswers.ok(body);
    }

    @GetMapping("/{group}/{session}")
    public ResponseEntity<ObjectNode> session(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                              @PathVariable String group, @PathVariable String session) {
        requireAdmin(authorization);
        String known = groupOf(group);
        String sequence = sequenceOf(session);
        ParkedSession parked = deadLetters.session(known, sequence).orElseThrow(() -> nothingParked(known, sequence));
        ObjectNode body = ApiResponses.ok();
        body.set("session", render(parked));
        return AdminAnswers.ok(body);
    }

    @PostMapping("/{group}/{session}/retry")
    public ResponseEntity<ObjectNode> retry(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                            @PathVariable String group, @PathVariable String session) {
        requireAdmin(authorization);
        String known = groupOf(group);
        String sequence = sequenceOf(session);
        DeadLetterAdministration.Retry retry = deadLetters.retry(known, sequence)
                .orElseThrow(() -> nothingParked(known, sequence));
        ObjectNode body = ApiResponses.ok();
        body.put("processing_group", known);
        body.put("session_id", sequence);
        body.put("handled", retry.handled());
        body.put("still_parked", retry.stillParked());
        return AdminAnswers.ok(body);
    }

    @PostMapping("/{group}/retry")
    public ResponseEntity<ObjectNode> retryAll(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                               @PathVariable String group) {
        requireAdmin(authorization);
        String known = groupOf(group);
        DeadLetterAdministration.RetryAll retry = deadLetters.retryAll(known);
        ObjectNode body = ApiResponses.ok();
        body.put("processing_group", known);
        body.put("sessions_retried", retry.sessionsRetried());
        body.put("sessions_still_parked", retry.sessionsStillParked());
        return AdminAnswers.ok(body);
    }

    @PostMapping("/{group}/{session}/drop")
    public ResponseEntity<ObjectNode> drop(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                           @PathVariable String group, @PathVariable String session,
                                           @RequestBody(required = false) byte[] rawBody) {
        requireAdmin(authorization);
        String known = groupOf(group);
        String sequence = sequenceOf(session);
        String reason = reasonOf(JsonBodies.readObject(rawBody).get("reason"));
        int dropped = deadLetters.drop(known, sequence, reason).orElseThrow(() -> nothingParked(known, sequence));
        ObjectNode body = ApiResponses.ok();
        body.put("processing_group", known);
        body.put("session_id", sequence);
        body.put("dropped", dropped);
        return AdminAnswers.ok(body);
    }

    private void requireAdmin(String authorization) {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
    }

    private String groupOf(String group) {
        if (!deadLetters.processingGroups().contains(group)) {
            throw new HttpException(404, ErrorCode.INVALID_REQUEST, "Processing group " + printable(group)
                    + " parks no events; the groups are " + String.join(", ", deadLetters.processingGroups()));
        }
        return group;
    }

    private static String sequenceOf(String session) {
        if (!SEQUENCE.matcher(session).matches()) {
            throw PaymentsException.invalidRequest("session must be a session id (ps_ and a number) or another "
                    + "aggregate id (letters, digits, '_', '.', ':', '-')");
        }
        return session;
    }

    private static String reasonOf(JsonNode reason) {
        if (reason == null || !reason.isTextual() || reason.asText().isBlank()) {
            throw PaymentsException.invalidRequest("reason is required: a text saying why the events are dropped");
        }
        String text = reason.asText().strip();
        if (text.length() > MAX_REASON) {
            throw PaymentsException.invalidRequest("reason must be at most " + MAX_REASON + " characters");
        }
        if (text.codePoints().anyMatch(Character::isISOControl)) {
            throw PaymentsException.invalidRequest("reason must be one line of text without control characters");
        }
        if (DIGIT_RUN.matcher(text).find()) {
            throw PaymentsException.invalidRequest("reason must not contain a number as long as a card number");
        }
        return text;
    }

    private static HttpException nothingParked(String group, String session) {
        return new HttpException(404, ErrorCode.INVALID_REQUEST, "No events of " + session + " are parked in " + group);
    }

    /** A path segment echoed in an answer: what is not a plain name is left out. */
    private static String printable(String text) {
        return text.matches("[A-Za-z0-9_.-]{1,64}") ? text : "(given)";
    }

    /** Absent values are left out, never {@code null} (decisions.md section 1). */
    static ObjectNode render(ParkedSession session) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("processing_group", session.processingGroup());
        node.put("session_id", session.session());
        ArrayNode events = node.putArray("events");
        for (ParkedEvent event : session.events()) {
            ObjectNode entry = events.addObject();
            entry.put("index", event.index());
            entry.put("event_id", event.eventId());
            entry.put("event_type", event.eventType());
            if (event.aggregateSequence() >= 0) {
                entry.put("session_sequence", event.aggregateSequence());
            }
            AdminAnswers.putTime(entry, "event_time", event.eventTime());
            AdminAnswers.putTime(entry, "parked_at", event.parkedAt());
            AdminAnswers.putTime(entry, "last_touched", event.lastTouched());
            if (event.causeType() != null) {
                ObjectNode cause = entry.putObject("cause");
                cause.put("type", event.causeType());
                if (event.causeDescription() != null) {
                    cause.put("description", event.causeDescription());
                }
            }
            ObjectNode diagnostics = entry.putObject("diagnostics");
            event.diagnostics().forEach(diagnostics::put);
        }
        return node;
    }
}
