package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The time has come to ask the rail again about a payment whose outcome is unknown. */
@Revision("1")
public record PaymentOutcomeQueryRequestedEvent(SessionId sessionId,
                                                PaymentId paymentId,
                                                RailOrder order,
                                                int query,
                                                Instant occurredAt) implements SessionEvent {
}
