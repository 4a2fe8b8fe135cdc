package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.http.RequestBodies;
import io.paysession.gateway.http.ServiceKeyController;
import io.paysession.gateway.security.AdminToken;
import io.paysession.gateway.security.ServiceKeyStore;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * {@code POST /admin/v1/service-keys/rotate} (bearer admin token): a new service key signs webhooks from now on;
 * the previous one stays published for {@code overlap} (an ISO 8601 duration; {@code payments.service-keys.overlap}
 * when absent, 7 days by default), then is retired. A short overlap is for a key thought compromised: it still
 * lasts twice the interval at which nodes read the keys again, so that no node signs with an unpublished key.
 */
@RestController
public class AdminServiceKeyController {

    /** Longer than any partner needs to pick up a key, short enough that a typo does not keep a key for years. */
    static final Duration MAX_OVERLAP = Duration.ofDays(90);

    private final AdminToken adminToken;
    private final ServiceKeyStore keys;

    public AdminServiceKeyController(AdminToken adminToken, ServiceKeyStore keys) {
        this.adminToken = adminToken;
        this.keys = keys;
    }

    @PostMapping("/admin/v1/service-keys/rotate")
    public ResponseEntity<ObjectNode> rotate(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                             HttpServletRequest request) throws IOException {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
        ObjectNode body = JsonBodies.readObject(RequestBodies.readOrRefuse(request));
        Duration overlap = overlap(body.get("overlap"));
        ServiceKeyStore.Rotation rotation = keys.rotate(overlap);
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", "ok");
        keys.published().stream().filter(key -> key.keyId().equals(rotation.keyId())).findFirst()
                .ifPresent(key -> ServiceKeyController.render(answer.putObject("key"), key));
        ObjectNode previous = answer.putObject("previous_key").put("key_id", rotation.previousKeyId());
        AdminAnswers.putTime(previous, "valid_until", rotation.previousValidUntil());
        return AdminAnswers.ok(answer);
    }

    private Duration overlap(JsonNode node) {
        if (node == null || node.isNull()) {
            return keys.defaultOverlap();
        }
        Duration overlap;
        try {
            overlap = node.isTextual() ? Duration.parse(node.asText()) : null;
        } catch (DateTimeParseException e) {
            overlap = null;
        }
        if (overlap == null || overlap.compareTo(keys.minimumOverlap()) < 0 || overlap.compareTo(MAX_OVERLAP) > 0) {
            throw PaymentsException.invalidRequest("overlap must be an ISO 8601 duration from " + keys.minimumOverlap()
                    + " to " + MAX_OVERLAP + ", as \"P7D\"");
        }
        return overlap;
    }
}
