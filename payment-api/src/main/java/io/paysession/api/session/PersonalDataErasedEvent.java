package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The keys of the session's personal data were erased by erasure {@code erasureId} (docs/erasure.md): from here on
 * every personal field of the session reads {@code "[erased]"}. Applied once the nodes' key caches have expired, so
 * that everything derived from the session's events (its view, its webhook bodies, its stored answers) is derived
 * again from the erased events. Names no personal data and no customer.
 */
@Revision("1")
public record PersonalDataErasedEvent(SessionId sessionId, String erasureId, Instant occurredAt) implements SessionEvent {
}
