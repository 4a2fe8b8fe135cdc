package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The rail's outcome of the payout stayed unknown past the last query of its first series
 * ({@code payments.limits.outcome-queries-before-error}): the payout shows {@code failed} with {@code error} and the
 * session {@code error} with {@code sessionError}, and {@code payment_finished} is sent. Not final (spec, "Session
 * status error"): the partner must not pay again but ask the operator; the rail is still queried, and its answer
 * moves the payout on as it would have.
 */
@Revision("1")
public record PayoutOutcomeOverdueEvent(SessionId sessionId,
                                        PayoutId payoutId,
                                        ErrorDetails error,
                                        ErrorDetails sessionError,
                                        Instant occurredAt) implements SessionEvent {
}
