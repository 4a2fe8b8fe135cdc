package io.paysession.api.session;

import java.time.Instant;

/** An event of the Session aggregate. Every event names its session and the instant it happened. */
public interface SessionEvent {

    SessionId sessionId();

    Instant occurredAt();
}
