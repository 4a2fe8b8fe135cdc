package io.paysession.webhook.notification;

import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.session.PersonalDataErasedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionViewCache;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.util.OptionalLong;

/**
 * Session events to webhook notifications in the outbox, and partner events to webhook endpoints.
 * A webhook shows the session exactly as it was at its event (folded from the event store when the
 * {@link SessionViewCache} does not know the session just before it), so what is sent is what the partner
 * would have seen at that moment. Its processor is subscribing ({@code WebhookConfiguration}): a notification
 * is written in the transaction that stores its event, so it exists exactly when its event does.
 */
@Component
@ProcessingGroup(WebhookNotificationProjection.PROCESSING_GROUP)
public class WebhookNotificationProjection {

    public static final String PROCESSING_GROUP = "webhook-notifications";

    private final NotificationDerivation derivation;
    private final NotificationOutbox outbox;
    private final EventPositions positions;

    public WebhookNotificationProjection(EventStore eventStore, NotificationOutbox outbox, EventPositions positions) {
        this(eventStore, outbox, positions, null);
    }

    @Autowired
    public WebhookNotificationProjection(EventStore eventStore, NotificationOutbox outbox, EventPositions positions,
                                         SessionViewCache cache) {
        this.derivation = new NotificationDerivation(eventStore, cache);
        this.outbox = outbox;
        this.positions = positions;
    }

    @EventHandler
    public void on(SessionEvent event, DomainEventMessage<?> message) {
        derivation.of(event, message).map(notification -> withOwnPosition(notification, message)).ifPresent(outbox::add);
    }

    /**
     * The session's personal data was erased: the bodies of its notifications are derived again from its (now erased)
     * events, as a rebuild of the outbox would derive them; ids and delivery state stay, nothing new is sent.
     */
    @EventHandler
    public void on(PersonalDataErasedEvent event) {
        derivation.ofSession(event.sessionId().value()).forEach(outbox::replaceBody);
    }

    /**
     * The outbox keeps the event's own position as the store tells it ({@link EventPositions}): on the JDBC store, a
     * subscribing processor's event is in the store's table already (same transaction), and a gap-aware token carries
     * the highest position seen so far, above the own position of an event that fills an earlier gap. When the store
     * cannot tell (a subscribing processor on Axon Server), the position the derivation took from the token, if any.
     */
    private NewNotification withOwnPosition(NewNotification notification, DomainEventMessage<?> message) {
        OptionalLong own = positions.positionOf(message);
        return own.isPresent() ? notification.at(own.getAsLong()) : notification;
    }

    @EventHandler
    public void on(PartnerRegisteredEvent event) {
        outbox.saveEndpoint(event.partnerId().project(), event.settings().webhookUrl(), event.registeredAt());
    }

    @EventHandler
    public void on(PartnerUpdatedEvent event) {
        outbox.saveEndpoint(event.partnerId().project(), event.settings().webhookUrl(), event.updatedAt());
    }
}
