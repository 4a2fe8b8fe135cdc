package io.paysession.gateway.idempotency;

import io.paysession.api.session.SessionId;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * The hook a request with a key passes through just before its command is sent: the key notes the session,
 * so that if this node dies before the answer is kept, the next request with the key can find what this one
 * stored in the session's events; and the command is marked for the fence ({@link IdempotencyFence}), which
 * checks in the command's own transaction that the key is still this request's.
 */
@Component
public class IdempotentCommands {

    private final IdempotencyStore store;

    public IdempotentCommands(IdempotencyStore store) {
        this.store = store;
    }

    /** The metadata the command carries for the fence; empty for a request without a key. */
    public Map<String, ?> beforeCommandOn(SessionId sessionId) {
        return IdempotencyClaim.current().map(claim -> {
            if (!sessionId.value().equals(claim.sessionId)) {
                if (!store.attachSession(claim.project, claim.key, claim.requestId, sessionId.value())) {
                    throw IdempotencyFence.keyLost();
                }
                claim.sessionId = sessionId.value();
            }
            return Map.of(IdempotencyFence.OWNER, claim.requestId);
        }).orElse(Map.of());
    }
}
