package io.paysession.api.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.money.Money;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** {@code session/refund}: a refund of {@code amount} starts {@code in_progress}. */
@Revision("1")
public record RefundRequestedEvent(SessionId sessionId,
                                   PaymentId paymentId,
                                   RefundId refundId,
                                   RailOrder order,
                                   Money amount,
                                   JsonNode metadata,
                                   Instant occurredAt) implements SessionEvent {
}
