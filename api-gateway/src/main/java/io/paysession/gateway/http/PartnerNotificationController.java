package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.SessionId;
import io.paysession.api.wire.WireFormat;
import io.paysession.webhook.admin.NotificationFilter;
import io.paysession.webhook.admin.NotificationPage;
import io.paysession.webhook.admin.NotificationRecord;
import io.paysession.webhook.admin.NotificationState;
import io.paysession.webhook.admin.WebhookAdministration;
import io.paysession.webhook.delivery.WebhookSigner;
import io.paysession.webhook.notification.WebhookType;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A partner's own webhooks, signed like every partner request (docs/decisions.md, "Notifications for the partner"):
 * {@code notification/list} lists them by session, type, state and creation time, each with its delivery attempts
 * and, with {@code with_body}, the exact body sent and its signature; {@code notification/resend} sends one again
 * (the same notification: same id, same body, its session's order kept), as the operator's redelivery does. Only the
 * asking project's notifications are ever listed or sent; another project's id is refused like an unknown one.
 */
@RestController
public class PartnerNotificationController {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final WebhookAdministration webhooks;
    private final WebhookSigner signer;

    public PartnerNotificationController(WebhookAdministration webhooks, WebhookSigner signer) {
        this.webhooks = webhooks;
        this.signer = signer;
    }

    @PostMapping("/api/{version}/notification/list")
    public ResponseEntity<ObjectNode> list(@PathVariable String version, HttpServletRequest request) {
        SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        String sessionId = Fields.text(body, "session_id", "").map(text -> SessionId.parse(text)
                .map(SessionId::value).orElseThrow(() -> PaymentsException.invalidRequest(
                        "session_id must be a session id (ps_ and a number)"))).orElse(null);
        String type = Fields.text(body, "type", "").map(PartnerNotificationController::type).orElse(null);
        NotificationState state = Fields.text(body, "state", "").map(text -> NotificationState.parse(text)
                .orElseThrow(() -> PaymentsException.invalidRequest("state must be pending, delivered or parked")))
                .orElse(null);
        Instant from = Fields.text(body, "created_from", "").map(text -> instant(text, "created_from")).orElse(null);
        Instant to = Fields.text(body, "created_to", "").map(text -> instant(text, "created_to")).orElse(null);
        String order = Fields.text(body, "order", "").orElse("newest_first");
        if (!order.equals("newest_first") && !order.equals("oldest_first")) {
            throw PaymentsException.invalidRequest("order must be newest_first or oldest_first");
        }
        int limit = limit(body.get("limit"));
        boolean withBody = flag(body.get("with_body"));
        NotificationPage page = webhooks.list(new NotificationFilter(sessionId, partner.project(), state, type, from,
                to, order.equals("oldest_first"), limit));
        ObjectNode answer = ApiResponses.ok();
        ArrayNode list = answer.putArray("notifications");
        page.notifications().forEach(notification -> list.add(render(notification, withBody)));
        answer.put("has_more", page.hasMore());
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    @PostMapping("/api/{version}/notification/resend")
    public ResponseEntity<ObjectNode> resend(@PathVariable String version, HttpServletRequest request) {
        SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        String id = Fields.requiredText(SessionController.body(request), "notification_id", "");
        UUID notificationId = UUID_TEXT.matcher(id).matches() ? UUID.fromString(id) : null;
        if (notificationId == null || webhooks.find(notificationId)
                .filter(found -> found.project().equals(partner.project())).isEmpty()) {
            throw PaymentsException.invalidRequest("notification_id is not a notification of this project");
        }
        NotificationRecord resent = webhooks.redeliver(notificationId, "partner " + partner.project()).orElseThrow(() ->
                PaymentsException.invalidRequest("notification_id is not a notification of this project"));
        ObjectNode answer = ApiResponses.ok();
        answer.set("notification", render(resent, false));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    private ObjectNode render(NotificationRecord notification, boolean withBody) {
        ObjectNode node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        node.put("id", notification.id().toString());
        node.put("session_id", notification.sessionId());
        node.put("type", notification.type());
        node.put("state", notification.state().wireName());
        node.put("created_at", WireFormat.timestamp(notification.createdAt()));
        if (notification.state() == NotificationState.PENDING && notification.nextAttemptAt() != null) {
            node.put("next_attempt_at", WireFormat.timestamp(notification.nextAttemptAt()));
        }
        if (notification.deliveredAt() != null) {
            node.put("delivered_at", WireFormat.timestamp(notification.deliveredAt()));
        }
        ArrayNode attempts = node.putArray("attempts");
        notification.attempts().forEach(attempt -> putAttempt(attempts.addObject(), attempt));
        if (withBody) {
            node.put("body", notification.body());
            WebhookSigner.Signature signature = signer.sign(notification.body().getBytes(StandardCharsets.UTF_8));
            node.put("signature", signature.value());
            node.put("signature_key_id", signature.keyId());
        }
        return node;
    }

    /** A delivery attempt as partners and operators see it: when, the answer's status, how long, what failed. */
    public static void putAttempt(ObjectNode entry, NotificationRecord.Attempt attempt) {
        entry.put("number", attempt.number());
        entry.put("attempted_at", WireFormat.timestamp(attempt.attemptedAt()));
        if (attempt.httpStatus() != null) {
            entry.put("http_status", attempt.httpStatus());
        }
        entry.put("latency_ms", attempt.latencyMillis());
        if (attempt.error() != null) {
            entry.put("error", attempt.error());
        }
    }

    private static String type(String text) {
        if (Arrays.stream(WebhookType.values()).noneMatch(type -> type.wireName().equals(text))) {
            throw PaymentsException.invalidRequest("type must be one of ready_to_confirm, action_required, "
                    + "ready_to_capture, payment_finished, payment_refunded");
        }
        return text;
    }

    private static Instant instant(String text, String field) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw PaymentsException.invalidRequest(field + " must be an ISO 8601 instant in UTC, e.g. "
                    + "2026-11-27T10:15:30Z");
        }
    }

    private static int limit(JsonNode node) {
        if (node == null || node.isNull()) {
            return DEFAULT_LIMIT;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.asInt() < 1 || node.asInt() > MAX_LIMIT) {
            throw PaymentsException.invalidRequest("limit must be an integer from 1 to " + MAX_LIMIT);
        }
        return node.asInt();
    }

    private static boolean flag(JsonNode node) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw PaymentsException.invalidRequest("with_body must be true or false");
        }
        return node.asBoolean();
    }
}
