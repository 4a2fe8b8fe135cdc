package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The rail's outcome of the refund stayed unknown past the last query of its first series: the refund shows
 * {@code error} with {@code error}, and {@code payment_refunded} is sent. Not final: its amount still counts against
 * what is left to refund, the rail is still queried, and its answer makes the refund {@code accepted} or
 * {@code declined}.
 */
@Revision("1")
public record RefundOutcomeOverdueEvent(SessionId sessionId,
                                        PaymentId paymentId,
                                        RefundId refundId,
                                        ErrorDetails error,
                                        Instant occurredAt) implements SessionEvent {
}
