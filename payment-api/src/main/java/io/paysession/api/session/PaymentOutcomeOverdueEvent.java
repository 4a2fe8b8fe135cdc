package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The rail's outcome of the payment stayed unknown past the last query of its first series
 * ({@code payments.limits.outcome-queries-before-error}): the payment shows {@code failed} with {@code error} and the
 * session {@code error} with {@code sessionError}, and {@code payment_finished} is sent. Not final (spec, "Session
 * status error"): the partner must not pay again but ask the operator; the rail is still queried, and its answer
 * moves the payment on as it would have.
 */
@Revision("1")
public record PaymentOutcomeOverdueEvent(SessionId sessionId,
                                         PaymentId paymentId,
                                         ErrorDetails error,
                                         ErrorDetails sessionError,
                                         Instant occurredAt) implements SessionEvent {
}
