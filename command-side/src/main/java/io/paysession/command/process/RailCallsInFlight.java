package io.paysession.command.process;

import io.paysession.api.session.SessionId;

import java.time.Duration;
import java.util.Optional;

/**
 * The rail calls this engine has started and whose answers are not recorded yet, one per event whose handling
 * started the call. No thread waits for a rail: what survives a crash is this record, and a live node handles the
 * event of a call nobody will answer again ({@link RailCallRecovery}). Each method joins the caller's transaction
 * when there is one.
 */
public interface RailCallsInFlight {

    /** The handling of {@code eventId} starts a rail call, owned by this node, due again after the lease. */
    void started(String eventId, SessionId session);

    /** The answer to the call of {@code eventId} is recorded (or was already): nothing is in flight for it. */
    void answered(String eventId);

    /** The call of {@code eventId} got no usable answer: the event is to be handled again after {@code delay}. */
    void retryAfter(String eventId, Duration delay);

    /** How many times the event of a call in flight was given back to be handled again; 0 when none or unknown. */
    int attempts(String eventId);

    /**
     * Locks, in the caller's transaction, one call that is due: its time has come, or its owner is not alive.
     * Empty when none (or all due ones are locked by other nodes).
     */
    Optional<Due> claimDue();

    /** Tells the other nodes this one is alive; called every few seconds while it runs. */
    void beat();

    /** This node stops: its calls in flight go to the others at once. */
    void leave();

    /** A call to take over: the event to handle again and its session. */
    record Due(String eventId, SessionId session) {
    }
}
