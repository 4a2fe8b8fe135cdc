package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The payer's bank disputed the payment: a chargeback of {@code amount}, shown as a refund with
 * {@code is_chargeback: true}, {@code in_progress} until the acquirer withholds the money
 * ({@code RefundAcceptedEvent}); {@code payment_refunded} is sent at both. It counts against what is left to
 * refund. {@code reason} is the acquirer's or the operator's words, kept for the audit, not shown to the partner.
 */
@Revision("1")
public record ChargebackOpenedEvent(SessionId sessionId,
                                    PaymentId paymentId,
                                    RefundId refundId,
                                    Money amount,
                                    String reason,
                                    Instant occurredAt) implements SessionEvent {
}
