package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.session.SessionId;
import io.paysession.api.wire.WireFormat;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.PartnerNotificationController;
import io.paysession.gateway.http.HttpException;
import io.paysession.gateway.partners.PartnerDirectory;
import io.paysession.gateway.security.AdminToken;
import io.paysession.webhook.admin.NotificationFilter;
import io.paysession.webhook.admin.NotificationPage;
import io.paysession.webhook.admin.NotificationRecord;
import io.paysession.webhook.admin.NotificationState;
import io.paysession.webhook.admin.WebhookAdministration;
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
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Webhooks for operators (docs/webhooks.md), Bearer admin token:
 * {@code GET /admin/v1/webhooks} lists notifications with every attempt, {@code GET /admin/v1/webhooks/{id}}
 * shows one with its body, {@code POST /admin/v1/webhooks/{id}/redeliver} sends one again,
 * {@code POST /admin/v1/webhooks/redeliver-parked?project=} sends a partner's parked ones again, and
 * {@code POST /admin/v1/sessions/{session_id}/webhooks/resend} sends a session's notifications again,
 * derived from its events. A redelivery keeps the webhook id and is recorded as asked by {@code admin}.
 */
@RestController
@RequestMapping("/admin/v1")
public class AdminWebhookController {

    /** Who the history names for requests made with the admin token. */
    static final String REQUESTED_BY = "admin";

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminToken adminToken;
    private final WebhookAdministration webhooks;
    private final PartnerDirectory partners;

    public AdminWebhookController(AdminToken adminToken, WebhookAdministration webhooks, PartnerDirectory partners) {
        this.adminToken = adminToken;
        this.webhooks = webhooks;
        this.partners = partners;
    }

    @GetMapping("/webhooks")
    public ResponseEntity<ObjectNode> list(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                           @RequestParam(name = "session_id", required = false) String sessionId,
                                           @RequestParam(name = "project", required = false) String project,
                                           @RequestParam(name = "state", required = false) String state,
                                           @RequestParam(name = "limit", required = false) String limit) {
        requireAdmin(authorization);
        NotificationFilter filter = new NotificationFilter(
                sessionId == null ? null : sessionIdOf(sessionId),
                project == null ? null : registeredProject(project),
                state == null ? null : NotificationState.parse(state).orElseThrow(() ->
                        PaymentsException.invalidRequest("state must be pending, delivered or parked")),
                limit == null ? NotificationFilter.DEFAULT_LIMIT : limitOf(limit));
        NotificationPage page = webhooks.list(filter);
        if (filter.sessionId() != null && page.notifications().isEmpty() && !webhooks.sessionExists(filter.sessionId())) {
            throw unknownSession(filter.sessionId());
        }
        ObjectNode body = ApiResponses.ok();
        ArrayNode list = body.putArray("webhooks");
        page.notifications().forEach(notification -> list.add(render(notification, false)));
        body.put("has_more", page.hasMore());
        return ok(body);
    }

    @GetMapping("/webhooks/{id}")
    public ResponseEntity<ObjectNode> read(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                           @PathVariable String id) {
        requireAdmin(authorization);
        UUID webhookId = webhookIdOf(id);
        NotificationRecord notification = webhooks.find(webhookId).orElseThrow(() -> unknownWebhook(id));
        return ok(withWebhook(notification, true));
    }

    @PostMapping("/webhooks/{id}/redeliver")
    public ResponseEntity<ObjectNode> redeliver(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                                @PathVariable String id) {
        requireAdmin(authorization);
        UUID webhookId = webhookIdOf(id);
        NotificationRecord notification = webhooks.redeliver(webhookId, REQUESTED_BY).orElseThrow(() -> unknownWebhook(id));
        return ok(withWebhook(notification, false));
    }

    @PostMapping("/webhooks/redeliver-parked")
    public ResponseEntity<ObjectNode> redeliverParked(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                                      @RequestParam(name = "project", required = false) String project) {
        requireAdmin(authorization);
        if (project == null) {
            throw PaymentsException.invalidRequest("project is required");
        }
        String known = registeredProject(project);
        List<UUID> redelivered = webhooks.redeliverParked(known, REQUESTED_BY);
        ObjectNode body = ApiResponses.ok();
        body.put("project", known);
        body.put("redelivered", redelivered.size());
        ArrayNode ids = body.putArray("webhook_ids");
        redelivered.forEach(redeliveredId -> ids.add(redeliveredId.toString()));
        return ok(body);
    }

    @PostMapping("/sessions/{sessionId}/webhooks/resend")
    public ResponseEntity<ObjectNode> resendSession(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                                    @PathVariable String sessionId) {
        requireAdmin(authorization);
        String session = sessionIdOf(sessionId);
        List<NotificationRecord> resent = webhooks.resendSession(session, REQUESTED_BY)
                .orElseThrow(() -> unknownSession(session));
        ObjectNode body = ApiResponses.ok();
        body.put("session_id", session);
        ArrayNode list = body.putArray("webhooks");
        resent.forEach(notification -> list.add(render(notification, false)));
        return ok(body);
    }

    private void requireAdmin(String authorization) {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
    }

    private String registeredProject(String project) {
        if (!PartnerId.PROJECT.matcher(project).matches()) {
            throw PaymentsException.invalidRequest(
                    "project must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        if (partners.find(project).isEmpty()) {
            throw new HttpException(404, ErrorCode.INVALID_REQUEST, "Project " + project + " is not registered");
        }
        return project;
    }

    private static String sessionIdOf(String text) {
        return SessionId.parse(text).map(SessionId::value).orElseThrow(() ->
                PaymentsException.invalidRequest("session_id must be a session id (ps_ and a number)"));
    }

    private static UUID webhookIdOf(String text) {
        if (!UUID_TEXT.matcher(text).matches()) {
            throw PaymentsException.invalidRequest("The webhook id must be a UUID, as in X-PARTNER-WEBHOOK-ID");
        }
        return UUID.fromString(text);
    }

    private static int limitOf(String text) {
        return AdminAnswers.limitOf(text, NotificationFilter.MAX_LIMIT);
    }

    private static HttpException unknownWebhook(String id) {
        return new HttpException(404, ErrorCode.INVALID_REQUEST, "Webhook " + id + " does not exist");
    }

    private static HttpException unknownSession(String sessionId) {
        return new HttpException(404, ErrorCode.INVALID_REQUEST, "Session " + sessionId + " does not exist");
    }

    private static ObjectNode withWebhook(NotificationRecord notification, boolean withBody) {
        ObjectNode body = ApiResponses.ok();
        body.set("webhook", render(notification, withBody));
        return body;
    }

    /** Absent values are left out, never {@code null} (decisions.md section 1). */
    static ObjectNode render(NotificationRecord notification, boolean withBody) {
        ObjectNode node = JSON.createObjectNode();
        node.put("id", notification.id().toString());
        node.put("session_id", notification.sessionId());
        node.put("project", notification.project());
        node.put("type", notification.type());
        node.put("state", notification.state().wireName());
        node.put("session_sequence", notification.sessionSequence());
        node.put("created_at", WireFormat.timestamp(notification.createdAt()));
        node.put("retry_window_started_at", WireFormat.timestamp(notification.windowStartedAt()));
        if (notification.state() == NotificationState.PENDING) {
            putTime(node, "next_attempt_at", notification.nextAttemptAt());
        }
        putTime(node, "delivered_at", notification.deliveredAt());
        if (notification.lastError() != null) {
            node.put("last_error", notification.lastError());
        }
        node.put("attempt_count", notification.attempts().size());
        ArrayNode attempts = node.putArray("attempts");
        for (NotificationRecord.Attempt attempt : notification.attempts()) {
            ObjectNode entry = attempts.addObject();
            PartnerNotificationController.putAttempt(entry, attempt);
            entry.put("redelivery", attempt.redelivery());
        }
        ArrayNode redeliveries = node.putArray("redeliveries");
        for (NotificationRecord.Redelivery redelivery : notification.redeliveries()) {
            ObjectNode entry = redeliveries.addObject();
            entry.put("number", redelivery.number());
            entry.put("requested_at", WireFormat.timestamp(redelivery.requestedAt()));
            entry.put("requested_by", redelivery.requestedBy());
            entry.put("operation", redelivery.operation().wireName());
            if (redelivery.previousState() != null) {
                entry.put("previous_state", redelivery.previousState().wireName());
            } else {
                entry.put("restored_from_events", true);
            }
        }
        if (withBody) {
            try {
                node.set("body", JSON.readTree(notification.body()));
            } catch (JsonProcessingException e) {
                node.put("body", notification.body());
            }
        }
        return node;
    }

    private static void putTime(ObjectNode node, String name, Instant time) {
        AdminAnswers.putTime(node, name, time);
    }

    private static ResponseEntity<ObjectNode> ok(ObjectNode body) {
        return AdminAnswers.ok(body);
    }
}
