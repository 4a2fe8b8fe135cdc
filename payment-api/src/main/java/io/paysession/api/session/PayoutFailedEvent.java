package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The payout failed; the session is cancelled with {@code sessionError}. */
@Revision("1")
public record PayoutFailedEvent(SessionId sessionId,
                                PayoutId payoutId,
                                ErrorDetails error,
                                ErrorDetails sessionError,
                                Instant occurredAt) implements SessionEvent {
}
