package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerId;
import io.paysession.gateway.erasure.Erasures;
import io.paysession.gateway.erasure.StoredEventsEncryption;
import io.paysession.gateway.http.HttpException;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.http.RequestBodies;
import io.paysession.gateway.partners.PartnerDirectory;
import io.paysession.gateway.security.AdminToken;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;

/**
 * {@code POST /admin/v1/erasures {project, customer_reference, requested_by?}} (bearer admin token) erases the personal
 * data of one customer of a partner by erasing the keys it is encrypted under (docs/erasure.md): 202 with the
 * erasure's id; 409 naming the customer's sessions still in flight, nothing erased. {@code GET
 * /admin/v1/erasures/{erasure_id}} shows it, {@code completed_at} once every view, webhook body and kept answer was
 * derived again from the erased events. {@code GET /admin/v1/erasures/stored-events} shows the one-off encryption of
 * events stored before personal data was encrypted; erasures wait for it.
 */
@RestController
public class AdminErasureController {

    private static final int MAX_REFERENCE = 256;
    private static final int MAX_REQUESTED_BY = 64;

    private final AdminToken adminToken;
    private final Erasures erasures;
    private final PartnerDirectory partners;
    private final StoredEventsEncryption encryption;

    public AdminErasureController(AdminToken adminToken, Erasures erasures, PartnerDirectory partners,
                                  StoredEventsEncryption encryption) {
        this.adminToken = adminToken;
        this.erasures = erasures;
        this.partners = partners;
        this.encryption = encryption;
    }

    /** How far the one-off encryption of events stored before personal data was encrypted has come. */
    @GetMapping("/admin/v1/erasures/stored-events")
    public ResponseEntity<ObjectNode> storedEvents(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        requireAdmin(authorization);
        StoredEventsEncryption.Progress progress = encryption.progress();
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", "ok");
        answer.putObject("stored_events").put("up_to", progress.upTo())
                .put("last_position", progress.lastGlobalIndex())
                .put("events_encrypted", progress.eventsEncrypted())
                .put("done", progress.done());
        return AdminAnswers.ok(answer);
    }

    @PostMapping("/admin/v1/erasures")
    public ResponseEntity<ObjectNode> erase(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                            HttpServletRequest request) throws IOException {
        requireAdmin(authorization);
        ObjectNode body = JsonBodies.readObject(RequestBodies.readOrRefuse(request));
        String project = text(body.get("project"), "project", 64);
        if (!PartnerId.PROJECT.matcher(project).matches() || partners.find(project).isEmpty()) {
            throw PaymentsException.invalidRequest("project is not a registered partner");
        }
        String reference = text(body.get("customer_reference"), "customer_reference", MAX_REFERENCE);
        String requestedBy = body.hasNonNull("requested_by")
                ? text(body.get("requested_by"), "requested_by", MAX_REQUESTED_BY) : "admin-token";
        Erasures.Erasure erasure = erasures.request(project, reference, requestedBy);
        return ResponseEntity.accepted().contentType(MediaType.APPLICATION_JSON).body(render(erasure));
    }

    @GetMapping("/admin/v1/erasures/{erasureId}")
    public ResponseEntity<ObjectNode> show(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                           @PathVariable String erasureId) {
        requireAdmin(authorization);
        return AdminAnswers.ok(render(erasures.find(erasureId).orElseThrow(() ->
                new HttpException(404, ErrorCode.INVALID_REQUEST, "No erasure with this id"))));
    }

    private static String text(JsonNode node, String name, int max) {
        if (node == null || !node.isTextual() || node.asText().isBlank() || node.asText().length() > max) {
            throw PaymentsException.invalidRequest(name + " must be a non-blank string of at most " + max + " characters");
        }
        return node.asText();
    }

    private void requireAdmin(String authorization) {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
    }

    private static ObjectNode render(Erasures.Erasure erasure) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", "ok");
        ObjectNode node = answer.putObject("erasure");
        node.put("erasure_id", erasure.erasureId());
        node.put("project", erasure.project());
        erasure.sessionIds().forEach(node.putArray("session_ids")::add);
        node.put("requested_by", erasure.requestedBy());
        AdminAnswers.putTime(node, "requested_at", erasure.requestedAt());
        AdminAnswers.putTime(node, "completed_at", erasure.completedAt());
        node.put("state", erasure.completedAt() == null ? "keys_erased" : "completed");
        return answer;
    }
}
