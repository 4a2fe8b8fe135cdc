package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The partner confirmed; the payment goes to the rail. Carries what the rail needs. */
@Revision("1")
public record PaymentConfirmedEvent(SessionId sessionId,
                                    PaymentId paymentId,
                                    PaymentMethod method,
                                    Money amount,
                                    Instant occurredAt) implements SessionEvent {
}
