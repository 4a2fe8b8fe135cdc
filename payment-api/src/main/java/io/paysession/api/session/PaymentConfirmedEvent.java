package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The partner confirmed; the payment goes to its rail with what the rail needs. */
@Revision("1")
public record PaymentConfirmedEvent(SessionId sessionId, PaymentId paymentId, RailOrder order, Instant occurredAt) implements SessionEvent {
}
