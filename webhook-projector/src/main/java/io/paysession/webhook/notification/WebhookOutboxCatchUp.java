package io.paysession.webhook.notification;

import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.session.SessionEvent;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.concurrent.TimeUnit;

/**
 * The upgrade from a tracking {@code webhook-notifications} processor (before issue 17) to the subscribing one: a
 * store that still holds that processor's tokens may hold events it had not turned into notifications when the old
 * version stopped. At start, those events (from the lowest of its tokens to the head of the store) are derived into
 * the outbox by the projection's own handlers, as the processor would have (outside a unit of work they fold the
 * session from the store, and the event's position comes from its token; the insert skips a notification already
 * there: same ids), and the tokens are deleted, so it happens once. A store without those tokens (every store created
 * since) costs one query. Every node of a cluster must run the new version: an old node would keep deriving behind this one's back.
 */
@Component
public class WebhookOutboxCatchUp {

    private static final Logger log = LoggerFactory.getLogger(WebhookOutboxCatchUp.class);

    private final TokenStore tokens;
    private final EventStore eventStore;
    private final WebhookNotificationProjection projection;
    private final TransactionTemplate transactions;

    public WebhookOutboxCatchUp(TokenStore tokens, EventStore eventStore, WebhookNotificationProjection projection,
                                PlatformTransactionManager transactionManager) {
        this.tokens = tokens;
        this.eventStore = eventStore;
        this.projection = projection;
        this.transactions = new TransactionTemplate(transactionManager);
    }

    @EventListener(ApplicationReadyEvent.class)
    public void catchUp() {
        String processor = WebhookNotificationProjection.PROCESSING_GROUP;
        int[] segments = transactions.execute(status -> tokens.fetchSegments(processor));
        if (segments == null || segments.length == 0) {
            return;
        }
        long read = transactions.execute(status -> {
            TrackingToken from = null;
            boolean first = true;
            for (int segment : segments) {
                TrackingToken token = tokens.fetchToken(processor, segment);
                from = first ? token : (from == null || token == null ? null : from.lowerBound(token));
                first = false;
            }
            long count = derive(from);
            for (int segment : segments) {
                tokens.deleteToken(processor, segment);
            }
            return count;
        });
        log.info("Webhook outbox caught up with the events the former tracking processor had not handled: {} events "
                + "read, its {} tokens deleted", read, segments.length);
    }

    /** Hands each event from {@code from} to the projection's own handlers; the events read. */
    private long derive(TrackingToken from) {
        long read = 0;
        try (BlockingStream<TrackedEventMessage<?>> stream = eventStore.openStream(from)) {
            while (stream.hasNextAvailable(100, TimeUnit.MILLISECONDS)) {
                TrackedEventMessage<?> message = stream.nextAvailable();
                read++;
                Object payload = message.getPayload();
                if (payload instanceof SessionEvent event && message instanceof DomainEventMessage<?> domain) {
                    projection.on(event, domain);
                } else if (payload instanceof PartnerRegisteredEvent registered) {
                    projection.on(registered);
                } else if (payload instanceof PartnerUpdatedEvent updated) {
                    projection.on(updated);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while catching the webhook outbox up", e);
        }
        return read;
    }
}
