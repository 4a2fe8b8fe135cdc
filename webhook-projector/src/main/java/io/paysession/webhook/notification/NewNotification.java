package io.paysession.webhook.notification;

import java.util.Objects;
import java.util.UUID;

/** A notification to put in the outbox; {@code eventGlobalIndex} is {@code null} when unknown. */
public record NewNotification(UUID id,
                              String sessionId,
                              String project,
                              WebhookType type,
                              String body,
                              long sessionSequence,
                              Long eventGlobalIndex) {

    public NewNotification {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
    }
}
