package io.paysession.api.eventstore.axon;

import io.paysession.api.eventstore.EventPositions;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.WrappedToken;

import java.util.OptionalLong;

/**
 * {@link EventPositions} from the event's tracking token, with Axon's API only: on a store without gaps (Axon
 * Server, Axon's in-memory store) a {@link GlobalSequenceTrackingToken} is exactly the event's position. An event
 * handed to a subscribing processor carries no token (Axon Server gives the position when it stores the event, after
 * the handlers ran): empty. So is an event tracked with any other token, a gap-aware one of the JDBC store
 * included, whose position is the highest seen and not the event's.
 */
public final class TrackingTokenPositions implements EventPositions {

    @Override
    public OptionalLong positionOf(EventMessage<?> event) {
        if (!(event instanceof TrackedEventMessage<?> tracked) || tracked.trackingToken() == null) {
            return OptionalLong.empty();
        }
        return WrappedToken.unwrap(tracked.trackingToken(), GlobalSequenceTrackingToken.class)
                .map(token -> OptionalLong.of(token.getGlobalIndex()))
                .orElse(OptionalLong.empty());
    }
}
