package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The money reached the recipient (or the recipient was found); the session is {@code accepted}. */
@Revision("1")
public record PayoutSucceededEvent(SessionId sessionId, PayoutId payoutId, TransactionInfo transactionInfo, Instant occurredAt) implements SessionEvent {
}
