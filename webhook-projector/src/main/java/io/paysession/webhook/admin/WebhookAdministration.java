package io.paysession.webhook.admin;

import io.paysession.api.wire.WireFormat;
import io.paysession.webhook.delivery.WebhookMetrics;
import io.paysession.webhook.notification.NewNotification;
import io.paysession.webhook.notification.NotificationDerivation;
import io.paysession.webhook.notification.NotificationOutbox;
import io.paysession.webhook.notification.NotificationsRedelivered;
import io.paysession.webhook.notification.NotificationsStored;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What an operator can do with webhooks: read them with every attempt, and send them again. A
 * redelivered notification keeps its id (it is the same notification, and partners de-duplicate by it),
 * becomes pending with a fresh retry window, and takes its place in its session's order again: a later
 * notification of the session that is still pending waits for it, while those already delivered are
 * not sent again unless asked for.
 */
@Component
public class WebhookAdministration {

    private static final Logger log = LoggerFactory.getLogger(WebhookAdministration.class);
    private static final NotificationsStored DUE = new NotificationsStored();

    private final WebhookAdminStore store;
    private final NotificationOutbox outbox;
    private final EventStore eventStore;
    private final NotificationDerivation derivation;
    private final TransactionTemplate transaction;
    private final ApplicationEventPublisher events;
    private final WebhookMetrics metrics;
    private final Clock clock = Clock.systemUTC();

    public WebhookAdministration(WebhookAdminStore store, NotificationOutbox outbox, EventStore eventStore,
                                 PlatformTransactionManager transactionManager, ApplicationEventPublisher events,
                                 WebhookMetrics metrics) {
        this.store = store;
        this.outbox = outbox;
        this.eventStore = eventStore;
        this.derivation = new NotificationDerivation(eventStore);
        this.transaction = new TransactionTemplate(transactionManager);
        this.events = events;
        this.metrics = metrics;
    }

    public NotificationPage list(NotificationFilter filter) {
        return store.list(filter);
    }

    public Optional<NotificationRecord> find(UUID id) {
        return store.find(id);
    }

    /** Whether the event store holds a session with this id (with or without notifications). */
    public boolean sessionExists(String sessionId) {
        return eventStore.readEvents(sessionId, 0L).hasNext();
    }

    /** The notification made pending again, or empty if there is none with that id. */
    public Optional<NotificationRecord> redeliver(UUID id, String requestedBy) {
        List<UUID> redelivered = store.redeliver(id, request(requestedBy, RedeliveryOperation.REDELIVER));
        if (redelivered.isEmpty()) {
            return Optional.empty();
        }
        Optional<NotificationRecord> record = store.find(id);
        announce(RedeliveryOperation.REDELIVER, requestedBy, redelivered, "notification " + id,
                record.map(NotificationRecord::project).stream().toList());
        return record;
    }

    /** Makes every parked notification of the partner pending again; their ids. */
    public List<UUID> redeliverParked(String project, String requestedBy) {
        List<UUID> redelivered = store.redeliverParked(project,
                request(requestedBy, RedeliveryOperation.REDELIVER_PARKED));
        announce(RedeliveryOperation.REDELIVER_PARKED, requestedBy, redelivered, "parked notifications of " + project,
                List.of(project));
        return redelivered;
    }

    /**
     * Sends every notification of the session again, in event order, with their original ids. They are
     * derived again from the event store, so a notification missing from the outbox is restored; one
     * that is there is sent with the bytes it was first sent with. Empty if the session does not exist.
     */
    public Optional<List<NotificationRecord>> resendSession(String sessionId, String requestedBy) {
        List<NewNotification> derived = derivation.ofSession(sessionId);
        if (derived.isEmpty()) {
            return sessionExists(sessionId) ? Optional.of(List.of()) : Optional.empty();
        }
        RedeliveryRequest request = request(requestedBy, RedeliveryOperation.RESEND_SESSION);
        List<UUID> ids = derived.stream().map(NewNotification::id).toList();
        List<UUID> redelivered = transaction.execute(status -> {
            List<UUID> restored = derived.stream().filter(outbox::add).map(NewNotification::id).toList();
            return store.redeliver(ids, restored, request);
        });
        announce(RedeliveryOperation.RESEND_SESSION, requestedBy, redelivered, "notifications of session " + sessionId,
                derived.stream().map(NewNotification::project).distinct().toList());
        return Optional.of(store.ofSession(sessionId).stream().filter(record -> ids.contains(record.id())).toList());
    }

    private RedeliveryRequest request(String requestedBy, RedeliveryOperation operation) {
        return new RedeliveryRequest(requestedBy, operation, WireFormat.now(clock));
    }

    /**
     * After the commit: the dispatcher sends them now rather than at its next poll, letting a probe through
     * the partners' open circuits at once (an operator asked for it).
     */
    private void announce(RedeliveryOperation operation, String requestedBy, List<UUID> redelivered, String what,
                          List<String> projects) {
        if (redelivered.isEmpty()) {
            return;
        }
        metrics.redelivered(operation.wireName(), redelivered.size());
        log.info("Redelivery ({}) of {} asked by {}: {} notification(s) pending again", operation.wireName(), what,
                requestedBy, redelivered.size());
        events.publishEvent(new NotificationsRedelivered(Set.copyOf(projects)));
        events.publishEvent(DUE);
    }
}
