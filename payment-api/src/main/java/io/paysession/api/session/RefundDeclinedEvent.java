package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The rail refused the refund: it is {@code declined} and its amount may be refunded again. */
@Revision("1")
public record RefundDeclinedEvent(SessionId sessionId,
                                  PaymentId paymentId,
                                  RefundId refundId,
                                  ErrorDetails reason,
                                  Instant occurredAt) implements SessionEvent {
}
