package io.paysession.api.eventstore;

import org.axonframework.eventhandling.EventMessage;

import java.util.OptionalLong;

/**
 * Where an event sits in the event store's global order: the settlement entries, the webhook outbox and the wallet
 * holds keep it, so that a report, a replay or a balance can say which events it covers. A port, because only the
 * store can tell: on Axon's JDBC store an event's own position is its row's global index (a tracking token there
 * carries the highest position seen, not the position of an event that fills a gap), on Axon Server it is the
 * position of the event's tracking token (Axon Server has no gaps), and a subscribing processor on Axon Server
 * sees the event before Axon Server has given it a position at all.
 * <p>
 * Adapters: {@link io.paysession.api.eventstore.jdbc.JdbcEventPositions} (Axon's JDBC store, the default) and
 * {@link io.paysession.api.eventstore.axon.TrackingTokenPositions} (Axon's event store API only, for Axon Server);
 * chosen by {@link #AXON_SERVER_PROPERTY}.
 */
public interface EventPositions {

    /** Axon's switch of its Axon Server connector; when true, the adapters that use Axon's API only are chosen. */
    String AXON_SERVER_PROPERTY = "axon.axonserver.enabled";

    /** {@code event}'s own position in the store's global order, or empty when the store cannot tell it (yet). */
    OptionalLong positionOf(EventMessage<?> event);
}
