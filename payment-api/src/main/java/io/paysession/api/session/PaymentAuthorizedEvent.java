package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The rail authorized and holds the money ({@code ready_to_capture}); the partner captures or cancels. */
@Revision("1")
public record PaymentAuthorizedEvent(SessionId sessionId,
                                     PaymentId paymentId,
                                     TransactionInfo transactionInfo,
                                     Instant occurredAt) implements SessionEvent {
}
