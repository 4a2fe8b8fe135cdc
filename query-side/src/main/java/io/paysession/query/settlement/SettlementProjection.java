package io.paysession.query.settlement;

import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.node.NodeRoles;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewCache;
import io.paysession.api.session.view.SessionViewFold;
import io.paysession.api.settlement.SettlementRules;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.WrappedToken;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * The reconciliation read model. A tracking processor with one segment sees every event in the store's
 * order and records the position up to which it has handled every event (below the lowest gap a
 * transaction still open leaves, unless that gap is older than the event store's gap time-out: its
 * transaction is gone), so a report says exactly which events it covers. The
 * session as it was before and after an event is folded from the event store, as the verification does, unless
 * the {@link SessionViewCache} holds it.
 */
@Component
@ConditionalOnExpression(NodeRoles.RUNS_PROJECTIONS)
@ProcessingGroup(SettlementProjection.PROCESSING_GROUP)
public class SettlementProjection {

    public static final String PROCESSING_GROUP = "settlement";

    /** The event store's gap time-out ({@code payments.events.gap-timeout}) when none is configured. */
    public static final Duration DEFAULT_GAP_TIMEOUT = Duration.ofSeconds(10);

    private final EventStore eventStore;
    private final SettlementStore store;
    private final EventPositions positions;
    private final Duration gapTimeout;
    private final SessionViewCache cache;

    @Autowired
    public SettlementProjection(EventStore eventStore, JdbcTemplate jdbc, EventPositions positions,
                                @Value("${payments.events.gap-timeout:10s}") Duration gapTimeout,
                                SessionViewCache cache) {
        this(eventStore, new SettlementStore(jdbc, "settlement"), positions, gapTimeout, cache);
    }

    public SettlementProjection(EventStore eventStore, SettlementStore store, EventPositions positions,
                                Duration gapTimeout, SessionViewCache cache) {
        this.eventStore = eventStore;
        this.store = store;
        this.positions = positions;
        this.gapTimeout = gapTimeout;
        this.cache = cache;
    }

    @EventHandler
    void on(Object payload, EventMessage<?> message) {
        if (payload instanceof SessionEvent event && message instanceof DomainEventMessage<?> domain) {
            // the event's own position: on the JDBC store the token's index is the highest position seen, not this
            // event's when it fills a gap
            long position = positions.positionOf(message).orElseThrow(() -> new IllegalStateException(
                    "the store gives no position for event " + domain.getIdentifier()));
            handle(event, domain.getIdentifier(), domain.getSequenceNumber(), position);
        }
        long covered = coveredPosition(message);
        if (covered < 0) {
            return;
        }
        TrackingToken token = WrappedToken.unwrapLowerBound(((TrackedEventMessage<?>) message).trackingToken());
        if (token instanceof GapAwareTrackingToken gapAware) {
            store.advanceTo(covered, gapAware.getIndex(), gapAware.getGaps(), gapTimeout);
        } else {
            store.advanceTo(covered);
        }
    }

    /** Derives and stores what one session event settles; also what a rebuild calls for each event. */
    public void handle(SessionEvent event, String eventId, long sequenceNumber, long position) {
        if (cache != null) {
            SessionViewCache.Transition transition = cache.transition(event, sequenceNumber, this::viewBefore);
            store.save(SettlementRules.derive(event, transition.before(), transition.after(), eventId, position));
            return;
        }
        SessionView before = viewBefore(event.sessionId().value(), sequenceNumber);
        SessionView after = SessionViewFold.apply(before, event, sequenceNumber);
        store.save(SettlementRules.derive(event, before, after, eventId, position));
    }

    /** The session as it was before {@code sequence}, read from sequence 0 rather than from a snapshot. */
    private SessionView viewBefore(String sessionId, long sequence) {
        return SessionViewFold.before(eventStore.readEvents(sessionId, 0L), sequence);
    }

    /**
     * The position every event up to which has been handled: below the lowest gap (an event of a
     * transaction not yet committed, which the processor will still see) when there is one.
     */
    static long coveredPosition(EventMessage<?> message) {
        if (!(message instanceof TrackedEventMessage<?> tracked) || tracked.trackingToken() == null) {
            return -1;
        }
        TrackingToken token = WrappedToken.unwrapLowerBound(tracked.trackingToken());
        if (token instanceof GapAwareTrackingToken gapAware && !gapAware.getGaps().isEmpty()) {
            return gapAware.getGaps().first() - 1;
        }
        return token.position().orElse(-1);
    }
}
