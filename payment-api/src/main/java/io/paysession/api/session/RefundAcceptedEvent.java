package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The rail returned the money: the refund is {@code accepted} ({@code payment_refunded}). */
@Revision("1")
public record RefundAcceptedEvent(SessionId sessionId, PaymentId paymentId, RefundId refundId, Instant occurredAt) implements SessionEvent {
}
