package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** {@code session/capture}: debit {@code captureAmount} of the hold and release the rest. */
@Revision("1")
public record PaymentCaptureRequestedEvent(SessionId sessionId,
                                           PaymentId paymentId,
                                           RailOrder order,
                                           Money captureAmount,
                                           Instant occurredAt) implements SessionEvent {
}
