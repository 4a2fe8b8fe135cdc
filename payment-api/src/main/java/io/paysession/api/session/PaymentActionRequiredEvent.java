package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The rail waits for the payer ({@code action_required}); the interaction says what the payer must do. */
@Revision("1")
public record PaymentActionRequiredEvent(SessionId sessionId,
                                         PaymentId paymentId,
                                         CustomerInteraction interaction,
                                         Instant occurredAt) implements SessionEvent {
}
