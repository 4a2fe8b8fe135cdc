package io.paysession.webhook.notification;

import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Session events to webhook notifications in the outbox, and partner events to webhook endpoints.
 * A webhook shows the session exactly as it was at its event, folded from the event store, so a
 * lagging or replaying processor still sends what the partner would have seen at that moment.
 */
@Component
@ProcessingGroup(WebhookNotificationProjection.PROCESSING_GROUP)
public class WebhookNotificationProjection {

    public static final String PROCESSING_GROUP = "webhook-notifications";

    private final EventStore eventStore;
    private final NotificationOutbox outbox;

    public WebhookNotificationProjection(EventStore eventStore, NotificationOutbox outbox) {
        this.eventStore = eventStore;
        this.outbox = outbox;
    }

    @EventHandler
    public void on(SessionEvent event, DomainEventMessage<?> message) {
        if (!NotificationRules.mayNotifyOn(event)) {
            return;
        }
        long sequence = message.getSequenceNumber();
        SessionView before = viewBefore(event.sessionId().value(), sequence);
        SessionView after = SessionViewFold.apply(before, event, sequence);
        NotificationRules.typeFor(event, before, after).ifPresent(type -> outbox.add(new NewNotification(
                notificationId(message.getIdentifier(), type),
                after.id(),
                after.project(),
                type,
                WebhookBody.render(type, after),
                sequence,
                globalIndex(message))));
    }

    @EventHandler
    public void on(PartnerRegisteredEvent event) {
        outbox.saveEndpoint(event.partnerId().project(), event.settings().webhookUrl(), event.registeredAt());
    }

    @EventHandler
    public void on(PartnerUpdatedEvent event) {
        outbox.saveEndpoint(event.partnerId().project(), event.settings().webhookUrl(), event.updatedAt());
    }

    /**
     * The session after its events up to, not including, {@code sequence}. Read from sequence 0 rather
     * than with {@code readEvents(id)}, which may start at an aggregate snapshot instead of an event.
     */
    private SessionView viewBefore(String sessionId, long sequence) {
        SessionView view = null;
        DomainEventStream stream = eventStore.readEvents(sessionId, 0L);
        while (stream.hasNext() && stream.peek().getSequenceNumber() < sequence) {
            DomainEventMessage<?> earlier = stream.next();
            if (earlier.getPayload() instanceof SessionEvent sessionEvent) {
                view = SessionViewFold.apply(view, sessionEvent, earlier.getSequenceNumber());
            }
        }
        return view;
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
