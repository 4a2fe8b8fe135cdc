package io.paysession.command.session;

import io.paysession.api.session.SessionId;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The time a session sees: the service's clock, unless the sandbox moved that session's time forward
 * ({@link SessionTimeShift}). What compares the present with a session's own deadlines asks this, not the
 * service's clock: the delays of the session's deadlines ({@link #delay}), the sandbox rails' answers that depend on
 * how long ago something happened ({@link #elapsedSince}). Recorded event times are the service's clock, always: the
 * audit trail says when things really happened.
 */
@Component
public class SessionClocks {

    private final Clock clock;
    private final SessionTimeShift shift;

    @Autowired
    public SessionClocks(Clock clock, ObjectProvider<SessionTimeShift> shift) {
        this(clock, shift.getIfAvailable());
    }

    private SessionClocks(Clock clock, SessionTimeShift shift) {
        this.clock = clock;
        this.shift = shift;
    }

    /** Every session on {@code clock}, none moved (tests, and any service without the sandbox). */
    public static SessionClocks real(Clock clock) {
        return new SessionClocks(clock, (SessionTimeShift) null);
    }

    /**
     * How much of the session's time has passed since {@code since}, an instant of the service's clock (a time the
     * sandbox recorded): the real time, plus the advances made after it. An advance made before {@code since} does
     * not count: what happened after it is not older for it.
     */
    public Duration elapsedSince(SessionId session, Instant since) {
        Duration real = Duration.between(since, clock.instant());
        return shift == null ? real : real.plus(shift.advancedSince(session, since));
    }

    /**
     * The delay after which a deadline of the session's {@code operationId} is set to fall {@code after} from now in
     * the session's time: {@code after}, less what the operation still has to catch up with of an advance.
     */
    public Duration delay(SessionId session, String operationId, Duration after) {
        if (shift == null || after.isNegative() || after.isZero()) {
            return after;
        }
        Duration taken = shift.takeCatchUp(session, operationId, after);
        return taken.compareTo(after) >= 0 ? Duration.ZERO : after.minus(taken);
    }
}
