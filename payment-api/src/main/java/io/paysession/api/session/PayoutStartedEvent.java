package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** A payout was accepted with complete data; it is {@code in_progress}. A recipient verification is confirmed at once. */
@Revision("1")
public record PayoutStartedEvent(SessionId sessionId, PayoutId payoutId, PayoutData payout, Instant occurredAt) implements SessionEvent {
}
