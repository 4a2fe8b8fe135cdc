package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.session.SessionId;
import io.paysession.api.settlement.SettlementReport;
import io.paysession.gateway.audit.AuditArguments;
import io.paysession.query.audit.ProjectionReplay;
import io.paysession.query.audit.Reconciliation;
import io.paysession.query.audit.ReportFormats;
import io.paysession.query.audit.SessionAudit;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.HttpException;
import io.paysession.gateway.idempotency.IdempotencyAudit;
import io.paysession.gateway.partners.PartnerDirectory;
import io.paysession.gateway.security.AdminToken;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Audit and reconciliation for operators (docs/audit.md), Bearer admin token:
 * {@code GET /admin/v1/sessions/{id}/events} (history with the request behind each event, and the idempotency
 * decisions of its requests), {@code GET /admin/v1/idempotency-keys/{project}/{key}},
 * {@code GET /admin/v1/sessions/{id}/view?at=|position=&version=} (the session as it was),
 * {@code GET /admin/v1/reports/reconciliation?project&from&to&format=json|csv&ids=true},
 * {@code GET /admin/v1/reports/reconciliation/verify?project&from&to} (the report recomputed from the event
 * store) and {@code POST /admin/v1/replay?projection=} (rebuild into fresh tables and compare).
 */
@RestController
@RequestMapping("/admin/v1")
public class AdminAuditController {

    private static final MediaType CSV = new MediaType("text", "csv", java.nio.charset.StandardCharsets.UTF_8);

    private final AdminToken adminToken;
    private final SessionAudit audit;
    private final Reconciliation reconciliation;
    private final ProjectionReplay replay;
    private final PartnerDirectory partners;
    private final IdempotencyAudit idempotency;
    private final AtomicBoolean replaying = new AtomicBoolean();

    public AdminAuditController(AdminToken adminToken, SessionAudit audit, Reconciliation reconciliation,
                                ProjectionReplay replay, PartnerDirectory partners, IdempotencyAudit idempotency) {
        this.adminToken = adminToken;
        this.audit = audit;
        this.reconciliation = reconciliation;
        this.replay = replay;
        this.partners = partners;
        this.idempotency = idempotency;
    }

    @GetMapping("/sessions/{sessionId}/events")
    public ResponseEntity<ObjectNode> events(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                             @PathVariable String sessionId) {
        requireAdmin(authorization);
        SessionId session = AuditArguments.session(sessionId);
        ArrayNode history = audit.history(session).orElseThrow(() -> unknownSession(session));
        ObjectNode body = ApiResponses.ok();
        body.put("session_id", session.value());
        body.set("events", history);
        body.set("idempotent_requests", idempotency.decisionsOfSession(session.value()));
        return ResponseEntity.ok(body);
    }

    /** A key of a project: what is kept with it (while remembered) and every decision taken on it. */
    @GetMapping("/idempotency-keys/{project}/{key}")
    public ResponseEntity<ObjectNode> idempotencyKey(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                                     @PathVariable String project, @PathVariable String key) {
        requireAdmin(authorization);
        ObjectNode found = idempotency.key(AuditArguments.project(project), key).orElseThrow(() ->
                new HttpException(404, ErrorCode.INVALID_REQUEST, "No idempotency key " + key + " of project " + project));
        ObjectNode body = ApiResponses.ok();
        body.set("idempotency_key", found);
        return ResponseEntity.ok(body);
    }

    @GetMapping("/sessions/{sessionId}/view")
    public ResponseEntity<ObjectNode> view(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                           @PathVariable String sessionId,
                                           @RequestParam(name = "at", required = false) String at,
                                           @RequestParam(name = "position", required = false) String position,
                                           @RequestParam(name = "version", required = false) String version) {
        requireAdmin(authorization);
        SessionId session = AuditArguments.session(sessionId);
        Instant instant = AuditArguments.instant(at);
        Long upTo = AuditArguments.position(position);
        ObjectNode view = audit.viewAt(session, instant, upTo, AuditArguments.version(version))
                .orElseThrow(() -> new HttpException(404, ErrorCode.INVALID_REQUEST, "Session " + session.value()
                        + (instant == null && upTo == null ? " does not exist" : " did not exist yet at that point")));
        ObjectNode body = ApiResponses.ok();
        body.set("session", view);
        return ResponseEntity.ok(body);
    }

    @GetMapping("/reports/reconciliation")
    public ResponseEntity<?> report(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                    @RequestParam(name = "project", required = false) String project,
                                    @RequestParam(name = "from", required = false) String from,
                                    @RequestParam(name = "to", required = false) String to,
                                    @RequestParam(name = "format", required = false) String format,
                                    @RequestParam(name = "ids", required = false) String ids) {
        requireAdmin(authorization);
        String known = registeredProject(project);
        AuditArguments.DateRange range = AuditArguments.range(from, to);
        boolean csv = AuditArguments.csv(format);
        SettlementReport report = reconciliation.report(known, range.from(), range.to(), AuditArguments.flag("ids", ids));
        if (csv) {
            return ResponseEntity.ok().contentType(CSV)
                    .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"reconciliation-" + known + "-"
                            + range.from() + "-" + range.to() + ".csv\"")
                    .body(ReportFormats.csv(report));
        }
        ObjectNode body = ApiResponses.ok();
        body.set("report", ReportFormats.json(report));
        return ResponseEntity.ok(body);
    }

    @GetMapping("/reports/reconciliation/verify")
    public ResponseEntity<ObjectNode> verify(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                             @RequestParam(name = "project", required = false) String project,
                                             @RequestParam(name = "from", required = false) String from,
                                             @RequestParam(name = "to", required = false) String to) {
        requireAdmin(authorization);
        String known = registeredProject(project);
        AuditArguments.DateRange range = AuditArguments.range(from, to);
        Reconciliation.Verification verification = reconciliation.verify(known, range.from(), range.to());
        ObjectNode body = ApiResponses.ok();
        body.put("position", verification.position());
        body.put("matches", verification.matches());
        ArrayNode differences = body.putArray("differences");
        verification.differences().forEach(differences::add);
        return ResponseEntity.ok(body);
    }

    @PostMapping("/replay")
    public ResponseEntity<ObjectNode> replay(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                             @RequestParam(name = "projection", required = false) String projection) {
        requireAdmin(authorization);
        var projections = AuditArguments.projections(replay, projection);
        if (!replaying.compareAndSet(false, true)) {
            throw new HttpException(409, ErrorCode.INVALID_REQUEST, "A replay is already running on this node");
        }
        try {
            List<ProjectionReplay.Result> results = replay.run(projections, (done, total, elapsed) -> {
            });
            ObjectNode body = ApiResponses.ok();
            body.put("identical", results.stream().allMatch(ProjectionReplay.Result::identical));
            ArrayNode list = body.putArray("projections");
            for (ProjectionReplay.Result result : results) {
                ObjectNode node = list.addObject();
                node.put("projection", result.projection());
                node.put("position", result.position());
                node.put("rows", result.rows());
                node.put("moved_on", result.movedOn());
                node.put("identical", result.identical());
                ArrayNode differences = node.putArray("differences");
                result.differences().forEach(differences::add);
            }
            return ResponseEntity.ok(body);
        } finally {
            replaying.set(false);
        }
    }

    private void requireAdmin(String authorization) {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
    }

    private String registeredProject(String project) {
        String valid = AuditArguments.project(project);
        if (partners.find(valid).isEmpty()) {
            throw new HttpException(404, ErrorCode.INVALID_REQUEST, "Project " + valid + " is not registered");
        }
        return valid;
    }

    private static HttpException unknownSession(SessionId session) {
        return new HttpException(404, ErrorCode.INVALID_REQUEST, "Session " + session.value() + " does not exist");
    }
}
