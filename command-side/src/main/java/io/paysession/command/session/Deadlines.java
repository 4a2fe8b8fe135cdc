package io.paysession.command.session;

import io.paysession.api.session.SessionId;
import org.axonframework.deadline.DeadlineManager;

import java.time.Duration;

/** The deadline manager, with delays counted in the session's time ({@link SessionClocks#delay}). */
record Deadlines(DeadlineManager manager, SessionClocks clocks) {

    void schedule(SessionId session, String name, Duration after, StageDeadline deadline) {
        manager.schedule(clocks.delay(session, deadline.operationId(), after), name, deadline);
    }
}
