package io.paysession.webhook.notification;

import java.util.Objects;
import java.util.UUID;

/** A notification to put in the outbox; {@code eventGlobalIndex}, its event's position in the store, is {@code null} when unknown. */
public record NewNotification(UUID id,
                              String sessionId,
                              String project,
                              WebhookType type,
                              String body,
                              long sessionSequence,
                              Long eventGlobalIndex) {

    /** This notification at {@code position}, its event's own position in the store. */
    public NewNotification at(long position) {
        return new NewNotification(id, sessionId, project, type, body, sessionSequence, position);
    }

    public NewNotification {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
    }
}
