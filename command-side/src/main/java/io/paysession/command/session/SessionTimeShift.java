package io.paysession.command.session;

import io.paysession.api.session.SessionId;

import java.time.Duration;
import java.time.Instant;

/**
 * A session whose time was moved forward by a partner: the sandbox's time travel ({@code POST
 * /sandbox/v1/clock/advance}, docs/sandbox.md "Time travel"). Only the sandbox has one; without it every session runs
 * on the service's clock ({@link SessionClocks}).
 */
public interface SessionTimeShift {

    /** How far the session's time was moved forward after {@code since} (an instant of the service's clock). */
    Duration advancedSince(SessionId session, Instant since);

    /**
     * Takes, for a timer of {@code operationId} to be set {@code after} from now, the part of a recent advance that
     * the operation's chain of timers has not caught up with yet (at most {@code after}): a deadline that fell due
     * because of the advance sets its follow-up as if it had fired at its own time, so that an advance runs the
     * whole chain it passes over (five outcome queries in one advance of 16 minutes). Zero when there is none.
     */
    Duration takeCatchUp(SessionId session, String operationId, Duration after);
}
