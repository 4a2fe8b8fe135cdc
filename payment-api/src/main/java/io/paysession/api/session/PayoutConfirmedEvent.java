package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The payout goes to its bank (confirmed by the partner, or automatically for a verification). */
@Revision("1")
public record PayoutConfirmedEvent(SessionId sessionId, PayoutId payoutId, PayoutData payout, Instant occurredAt) implements SessionEvent {
}
