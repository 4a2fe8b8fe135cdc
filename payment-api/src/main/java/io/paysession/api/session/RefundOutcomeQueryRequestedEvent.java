package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The time has come to ask the rail again about a refund whose outcome is unknown. */
@Revision("1")
public record RefundOutcomeQueryRequestedEvent(SessionId sessionId,
                                               PaymentId paymentId,
                                               RefundId refundId,
                                               RailOrder order,
                                               Money amount,
                                               int query,
                                               Instant occurredAt) implements SessionEvent {
}
