package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The rail's answer to a capture was lost (time-out, error, or a crash between the call and its recording):
 * the capture may have happened. It is never sent again; the rail is asked about it later. The payment stays
 * capturing (shown succeeded, the session in progress).
 */
@Revision("1")
public record PaymentCaptureOutcomeUnknownEvent(SessionId sessionId,
                                                PaymentId paymentId,
                                                ErrorDetails reason,
                                                int queriesMade,
                                                Instant occurredAt) implements SessionEvent {
}
