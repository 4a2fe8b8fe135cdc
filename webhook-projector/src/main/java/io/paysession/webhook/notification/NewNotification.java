package io.paysession.webhook.notification;

import java.util.Objects;
import java.util.UUID;

/**
 * A notification to put in the outbox; {@code eventGlobalIndex} is {@code null} when unknown, and then looked up by
 * {@code eventIdentifier} (its event's id, {@code null} when unknown) when it is stored.
 */
public record NewNotification(UUID id,
                              String sessionId,
                              String project,
                              WebhookType type,
                              String body,
                              long sessionSequence,
                              Long eventGlobalIndex,
                              String eventIdentifier) {

    public NewNotification(UUID id, String sessionId, String project, WebhookType type, String body,
                           long sessionSequence, Long eventGlobalIndex) {
        this(id, sessionId, project, type, body, sessionSequence, eventGlobalIndex, null);
    }

    /** This notification at {@code position}, its event's own position in the store. */
    public NewNotification at(long position) {
        return new NewNotification(id, sessionId, project, type, body, sessionSequence, position, eventIdentifier);
    }

    /** This notification, its position no longer to be looked up by its event's id. */
    public NewNotification withoutEventIdentifier() {
        return new NewNotification(id, sessionId, project, type, body, sessionSequence, eventGlobalIndex, null);
    }

    public NewNotification {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
    }
}
