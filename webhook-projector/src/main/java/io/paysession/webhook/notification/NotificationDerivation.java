package io.paysession.webhook.notification;

import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewCache;
import io.paysession.api.session.view.SessionViewFold;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The one definition of which notifications a session's events give, with which id and body. The
 * projection applies it to each event as it comes; the admin API's re-send applies it to a session's
 * whole stream. Both give the same ids, so a notification derived twice is one notification.
 */
public final class NotificationDerivation {

    private final EventStore eventStore;
    private final SessionViewCache cache;

    public NotificationDerivation(EventStore eventStore) {
        this(eventStore, null);
    }

    /** With {@code cache}, the session before an event is folded again from the store only when it is not known. */
    public NotificationDerivation(EventStore eventStore, SessionViewCache cache) {
        this.eventStore = eventStore;
        this.cache = cache;
    }

    /** The notification {@code message} gives, seeing the session as it was just before it. */
    public Optional<NewNotification> of(SessionEvent event, DomainEventMessage<?> message) {
        if (!NotificationRules.mayNotifyOn(event)) {
            return Optional.empty();
        }
        long sequence = message.getSequenceNumber();
        if (cache != null) {
            SessionViewCache.Transition transition = cache.transition(event, sequence, this::viewBefore);
            return notification(event, transition.before(), transition.after(), message.getIdentifier(), sequence,
                    globalIndex(message));
        }
        SessionView before = viewBefore(event.sessionId().value(), sequence);
        return next(before, event, message);
    }

    /** Every notification of the session's events so far, in event order; empty for an unknown session. */
    public List<NewNotification> ofSession(String sessionId) {
        List<NewNotification> notifications = new ArrayList<>();
        SessionView view = null;
        DomainEventStream stream = eventStore.readEvents(sessionId, 0L);
        while (stream.hasNext()) {
            DomainEventMessage<?> message = stream.next();
            if (message.getPayload() instanceof SessionEvent event) {
                next(view, event, message).ifPresent(notifications::add);
                view = SessionViewFold.apply(view, event, message.getSequenceNumber());
            }
        }
        return notifications;
    }

    private static Optional<NewNotification> next(SessionView before, SessionEvent event, DomainEventMessage<?> message) {
        return derive(before, event, message.getIdentifier(), message.getSequenceNumber(), globalIndex(message));
    }

    /**
     * The pure derivation: the notification an event gives, from the session just before it. For tools that
     * fold sessions themselves (a replay of the store that compares with the outbox).
     */
    public static Optional<NewNotification> derive(SessionView before, SessionEvent event, String eventIdentifier,
                                                   long sequence, Long globalIndex) {
        if (!NotificationRules.mayNotifyOn(event)) {
            return Optional.empty();
        }
        return notification(event, before, SessionViewFold.apply(before, event, sequence), eventIdentifier, sequence,
                globalIndex);
    }

    private static Optional<NewNotification> notification(SessionEvent event, SessionView before, SessionView after,
                                                          String eventIdentifier, long sequence, Long globalIndex) {
        return NotificationRules.typeFor(event, before, after).map(type -> new NewNotification(
                notificationId(eventIdentifier, type),
                after.id(),
                after.project(),
                type,
                WebhookBody.render(type, after),
                sequence,
                globalIndex));
    }

    /** The session as it was before {@code sequence}, read from sequence 0 rather than from a snapshot. */
    private SessionView viewBefore(String sessionId, long sequence) {
        return SessionViewFold.before(eventStore.readEvents(sessionId, 0L), sequence);
    }

    /** Stable across reprocessing; the type is part of it in case one event ever gives two webhooks. */
    static UUID notificationId(String eventIdentifier, WebhookType type) {
        return UUID.nameUUIDFromBytes(("webhook:" + eventIdentifier + ":" + type.wireName())
                .getBytes(StandardCharsets.UTF_8));
    }

    private static Long globalIndex(DomainEventMessage<?> message) {
        if (message instanceof TrackedEventMessage<?> tracked) {
            TrackingToken token = tracked.trackingToken();
            if (token != null && token.position().isPresent()) {
                return token.position().getAsLong();
            }
        }
        return null;
    }
}
