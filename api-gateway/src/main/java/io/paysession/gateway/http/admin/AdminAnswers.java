package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.wire.WireFormat;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.time.Instant;

/** What the admin controllers share: the 200 answer, times on the wire, the {@code limit} parameter. */
final class AdminAnswers {

    private AdminAnswers() {
    }

    static ResponseEntity<ObjectNode> ok(ObjectNode body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    /** Absent values are left out, never {@code null} (decisions.md section 1). */
    static void putTime(ObjectNode node, String name, Instant time) {
        if (time != null) {
            node.put(name, WireFormat.timestamp(time));
        }
    }

    /** A {@code limit} query parameter: an integer from 1 to {@code max}, else 400 {@code invalid_request}. */
    static int limitOf(String text, int max) {
        if (text.matches("[0-9]{1,4}")) {
            int limit = Integer.parseInt(text);
            if (limit >= 1 && limit <= max) {
                return limit;
            }
        }
        throw PaymentsException.invalidRequest("limit must be an integer from 1 to " + max);
    }
}
