package io.paysession.gateway.idempotency;

import io.paysession.api.session.SessionId;
import org.springframework.stereotype.Component;

/**
 * The hook a request with a key passes through just before its command is sent: the key notes the session,
 * so that if this node dies before the answer is kept, the next request with the key can find what this one
 * stored in the session's events.
 */
@Component
public class IdempotentCommands {

    private final IdempotencyStore store;

    public IdempotentCommands(IdempotencyStore store) {
        this.store = store;
    }

    public void beforeCommandOn(SessionId sessionId) {
        IdempotencyClaim.current().ifPresent(claim -> {
            if (!sessionId.value().equals(claim.sessionId)) {
                store.attachSession(claim.project, claim.key, claim.requestId, sessionId.value());
                claim.sessionId = sessionId.value();
            }
        });
    }
}
