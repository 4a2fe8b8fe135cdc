package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The time has come to ask the rail again about a capture whose outcome is unknown. */
@Revision("1")
public record PaymentCaptureQueryRequestedEvent(SessionId sessionId,
                                                PaymentId paymentId,
                                                RailOrder order,
                                                Money captureAmount,
                                                int query,
                                                Instant occurredAt) implements SessionEvent {
}
