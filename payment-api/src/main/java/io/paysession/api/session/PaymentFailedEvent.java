package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The payment failed (a decline is an outcome, not an error); the session is cancelled with {@code sessionError}. */
@Revision("1")
public record PaymentFailedEvent(SessionId sessionId,
                                 PaymentId paymentId,
                                 ErrorDetails error,
                                 ErrorDetails sessionError,
                                 Instant occurredAt) implements SessionEvent {
}
