package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The payment is paid: {@code capturedAmount} was debited; the session is {@code accepted}. */
@Revision("1")
public record PaymentSucceededEvent(SessionId sessionId,
                                    PaymentId paymentId,
                                    TransactionInfo transactionInfo,
                                    Money capturedAmount,
                                    Money merchantFee,
                                    Instant occurredAt) implements SessionEvent {
}
