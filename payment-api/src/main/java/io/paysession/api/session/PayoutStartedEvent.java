package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** A payout was accepted with complete data; it is {@code in_progress}. A recipient verification is confirmed at once. */
@Revision("1")
public record PayoutStartedEvent(SessionId sessionId, PayoutId payoutId, PayoutData payout, Instant occurredAt,
                                 boolean fromBalance) implements SessionEvent {

    /** A payout the provider funds (not from the partner's balance), as every payout was before issue 18. */
    public PayoutStartedEvent(SessionId sessionId, PayoutId payoutId, PayoutData payout, Instant occurredAt) {
        this(sessionId, payoutId, payout, occurredAt, false);
    }
}
