package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The payout bank pre-checked the payout; the service waits for the partner ({@code ready_to_confirm}). */
@Revision("1")
public record PayoutReadyToConfirmEvent(SessionId sessionId, PayoutId payoutId, Instant occurredAt) implements SessionEvent {
}
