package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The rail did not answer in time: the outcome is unknown (not a failure) and the rail is asked again later. */
@Revision("1")
public record PaymentOutcomeUnknownEvent(SessionId sessionId,
                                         PaymentId paymentId,
                                         ErrorDetails reason,
                                         int queriesMade,
                                         Instant occurredAt) implements SessionEvent {
}
