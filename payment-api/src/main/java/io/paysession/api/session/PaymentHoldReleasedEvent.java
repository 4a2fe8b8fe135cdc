package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The hold of a payment is given back to the payer (cancel or capture time-out); the rail is told. */
@Revision("1")
public record PaymentHoldReleasedEvent(SessionId sessionId, PaymentId paymentId, RailOrder order, Instant occurredAt) implements SessionEvent {
}
