package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The payout bank did not answer in time; the outcome is unknown and the bank is asked again later. */
@Revision("1")
public record PayoutOutcomeUnknownEvent(SessionId sessionId, PayoutId payoutId, ErrorDetails reason, int queriesMade, Instant occurredAt) implements SessionEvent {
}
