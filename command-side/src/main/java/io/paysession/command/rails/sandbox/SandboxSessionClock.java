package io.paysession.command.rails.sandbox;

import io.paysession.api.session.SessionId;
import io.paysession.command.session.SessionTimeShift;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The sandbox's time travel, its store: each session's offset ahead of the service's clock, moved only forward by
 * the partner ({@code POST /sandbox/v1/clock/advance}), and what the session's operations still have to catch up
 * with (docs/sandbox.md "Time travel"). The session's pending timers are brought earlier by the gateway's
 * {@code SessionTimeTravel}; this keeps the numbers and answers {@link SessionTimeShift}.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxSessionClock implements SessionTimeShift {

    /** A catch-up runs within seconds of its advance; one that no timer took by then is not taken later. */
    static final Duration CATCH_UP_LIFETIME = Duration.ofMinutes(5);

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public SandboxSessionClock(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The session's time after the advance, as an offset from the service's clock, and how many advances made it. */
    public record Offset(Duration offset, int advances) {
    }

    @Override
    public Duration advancedSince(SessionId session, Instant since) {
        Long advanced = jdbc.queryForObject("""
                        select coalesce(sum(duration_ms), 0) from sandbox_clock_advance
                         where session_id = ? and advanced_at > ?""",
                Long.class, session.value(), Timestamp.from(since));
        return Duration.ofMillis(advanced == null ? 0 : advanced);
    }

    /** Adds {@code duration} to the session's offset (in the caller's transaction); the new offset. */
    public Offset advance(SessionId session, Duration duration) {
        jdbc.update("insert into sandbox_clock_advance (session_id, advanced_at, duration_ms) values (?, ?, ?)",
                session.value(), Timestamp.from(clock.instant()), duration.toMillis());
        return jdbc.queryForObject("""
                        insert into sandbox_session_clock (session_id, offset_ms, advances, advanced_at)
                        values (?, ?, 1, ?)
                        on conflict (session_id) do update
                           set offset_ms = sandbox_session_clock.offset_ms + excluded.offset_ms,
                               advances = sandbox_session_clock.advances + 1,
                               advanced_at = excluded.advanced_at
                        returning offset_ms, advances""",
                (row, index) -> new Offset(Duration.ofMillis(row.getLong("offset_ms")), row.getInt("advances")),
                session.value(), duration.toMillis(), Timestamp.from(clock.instant()));
    }

    /**
     * Records that {@code operationId}'s chain of timers has {@code remaining} of the advance still to run through
     * (a deadline of it fell due {@code remaining} before the session's new present); the larger one is kept.
     */
    public void catchUp(SessionId session, String operationId, Duration remaining) {
        jdbc.update("""
                        insert into sandbox_clock_catch_up (session_id, operation_id, remaining_ms, expires_at)
                        values (?, ?, ?, ?)
                        on conflict (session_id, operation_id) do update
                           set remaining_ms = greatest(excluded.remaining_ms,
                                   case when sandbox_clock_catch_up.expires_at > ?
                                        then sandbox_clock_catch_up.remaining_ms else 0 end),
                               expires_at = excluded.expires_at""",
                session.value(), operationId, remaining.toMillis(),
                Timestamp.from(clock.instant().plus(CATCH_UP_LIFETIME)), Timestamp.from(clock.instant()));
    }

    @Override
    public Duration takeCatchUp(SessionId session, String operationId, Duration after) {
        List<Long> remaining = jdbc.queryForList("""
                        select remaining_ms from sandbox_clock_catch_up
                         where session_id = ? and operation_id = ? and expires_at > ?
                           for update""",
                Long.class, session.value(), operationId, Timestamp.from(clock.instant()));
        if (remaining.isEmpty()) {
            return Duration.ZERO;
        }
        Duration left = Duration.ofMillis(remaining.get(0));
        if (after.compareTo(left) < 0) {
            jdbc.update("update sandbox_clock_catch_up set remaining_ms = ? where session_id = ? and operation_id = ?",
                    left.minus(after).toMillis(), session.value(), operationId);
            return after;
        }
        jdbc.update("delete from sandbox_clock_catch_up where session_id = ? and operation_id = ?", session.value(),
                operationId);
        return left;
    }

    /**
     * Brings the sandbox acquirer's own timers of the session (its chargeback desk's notices) earlier by
     * {@code duration}, an overdue one to {@code now}; how many.
     */
    public int bringSandboxTimersEarlier(SessionId session, Duration duration, Instant now) {
        return jdbc.update("""
                        update sandbox_chargeback
                           set due_at = greatest(due_at - (? * interval '1 millisecond'), ?)
                         where session_id = ?""",
                duration.toMillis(), Timestamp.from(now), session.value());
    }
}
