package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The session was cancelled (by the partner, or by a time limit); every unfinished operation fails with the same error. */
@Revision("1")
public record SessionCancelledEvent(SessionId sessionId, ErrorDetails error, Instant occurredAt) implements SessionEvent {
}
