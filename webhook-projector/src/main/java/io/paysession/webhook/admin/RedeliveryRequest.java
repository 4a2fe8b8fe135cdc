package io.paysession.webhook.admin;

import java.time.Instant;
import java.util.Objects;

/** Who asked for a redelivery, when, and by which operation; stored with every notification it touches. */
public record RedeliveryRequest(String requestedBy, RedeliveryOperation operation, Instant requestedAt) {

    public RedeliveryRequest {
        Objects.requireNonNull(requestedBy, "requestedBy");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(requestedAt, "requestedAt");
        if (requestedBy.isBlank() || requestedBy.length() > 128) {
            throw new IllegalArgumentException("requestedBy must have 1 to 128 characters");
        }
    }
}
