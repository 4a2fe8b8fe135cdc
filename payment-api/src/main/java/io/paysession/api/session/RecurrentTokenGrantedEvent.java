package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * A payment made with {@code payment_options.recurrent=true} succeeded: it grants a recurrent token for
 * later payments, shown on the payment as {@code recurrent}. Applied just before the payment's
 * success, so that {@code payment_finished} carries the token.
 */
@Revision("1")
public record RecurrentTokenGrantedEvent(SessionId sessionId,
                                         PaymentId paymentId,
                                         String token,
                                         String project,
                                         PaymentMethod source,
                                         Instant occurredAt) implements SessionEvent {
}
