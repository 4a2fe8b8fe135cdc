package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The rail pre-checked the payment; the service waits for the partner ({@code ready_to_confirm}). */
@Revision("1")
public record PaymentReadyToConfirmEvent(SessionId sessionId, PaymentId paymentId, Instant occurredAt) implements SessionEvent {
}
