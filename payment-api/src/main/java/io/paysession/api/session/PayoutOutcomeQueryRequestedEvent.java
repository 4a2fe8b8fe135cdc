package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The time has come to ask the payout bank again about a payout whose outcome is unknown. */
@Revision("1")
public record PayoutOutcomeQueryRequestedEvent(SessionId sessionId, PayoutId payoutId, PayoutData payout, int query, Instant occurredAt) implements SessionEvent {
}
