package io.paysession.gateway.idempotency;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.wire.WireFormat;
import io.paysession.gateway.idempotency.IdempotencyStore.DecisionRecord;
import io.paysession.gateway.idempotency.IdempotencyStore.KeyRecord;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What an auditor reads of idempotency keys: a key with every decision taken on it, and the decisions behind a
 * session's requests, so that a replay can be told from a new request (a replay caused no event; a first use
 * caused the events that carry its request id).
 */
@Component
public class IdempotencyAudit {

    private final IdempotencyStore store;

    public IdempotencyAudit(IdempotencyStore store) {
        this.store = store;
    }

    /** The key (while it is remembered) and its decisions (kept after it is forgotten); empty if neither exists. */
    public Optional<ObjectNode> key(String project, String key) {
        Optional<KeyRecord> record = store.find(project, key).filter(found -> !found.expired());
        List<DecisionRecord> decisions = store.decisionsOfKey(project, key);
        if (record.isEmpty() && decisions.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("project", project);
        node.put("idempotency_key", key);
        record.ifPresent(found -> {
            ObjectNode kept = node.putObject("kept");
            kept.put("state", found.completed() ? "completed" : "running");
            kept.put("endpoint", found.endpoint());
            kept.put("request_id", found.ownerRequestId());
            putIfPresent(kept, "session_id", found.sessionId());
            if (found.responseStatus() != null) {
                kept.put("response_status", found.responseStatus());
            }
            kept.put("created_at", WireFormat.timestamp(found.createdAt()));
            putTime(kept, "completed_at", found.completedAt());
            kept.put("expires_at", WireFormat.timestamp(found.expiresAt()));
        });
        node.set("decisions", decisions(decisions));
        return Optional.of(node);
    }

    public ArrayNode decisionsOfSession(String sessionId) {
        return decisions(store.decisionsOfSession(sessionId));
    }

    private static ArrayNode decisions(List<DecisionRecord> records) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (DecisionRecord record : records) {
            ObjectNode node = list.addObject();
            node.put("decision", record.decision());
            node.put("idempotency_key", record.key());
            node.put("request_id", record.requestId());
            putIfPresent(node, "original_request_id", record.originalRequestId());
            node.put("endpoint", record.endpoint());
            putIfPresent(node, "session_id", record.sessionId());
            if (record.responseStatus() != null) {
                node.put("response_status", record.responseStatus());
            }
            node.put("decided_at", WireFormat.timestamp(record.decidedAt()));
        }
        return list;
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    private static void putTime(ObjectNode node, String field, Instant value) {
        if (value != null) {
            node.put(field, WireFormat.timestamp(value));
        }
    }
}
