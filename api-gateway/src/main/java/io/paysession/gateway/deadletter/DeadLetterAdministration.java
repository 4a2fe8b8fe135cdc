package io.paysession.gateway.deadletter;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parked events of the streaming processors, for operators: what is parked, a retry, a drop. A port,
 * so that the admin API knows nothing of the queue behind it. A "session" is the sequence the events are
 * parked in: the aggregate they belong to (a session id, or {@code partner:<project>} for a partner's events).
 */
public interface DeadLetterAdministration {

    /** The processing groups that park events, in a fixed order. */
    List<String> processingGroups();

    Summary summary(String processingGroup);

    /** The parked sessions of a group, oldest change first, at most {@code limit}, each with its events in order. */
    List<ParkedSession> sessions(String processingGroup, int limit);

    Optional<ParkedSession> session(String processingGroup, String session);

    /**
     * Handles the session's parked events again, in order, as the processor would have; stops at the first that
     * fails again (it and the later ones stay parked). Empty when the session has no parked events.
     */
    Optional<Retry> retry(String processingGroup, String session);

    /** {@link #retry} for every parked session of the group. */
    RetryAll retryAll(String processingGroup);

    /** Removes the session's parked events unhandled, logging the reason; how many. Empty when none are parked. */
    Optional<Integer> drop(String processingGroup, String session, String reason);

    record Summary(String processingGroup, long sessions, long events) {
    }

    record ParkedSession(String processingGroup, String session, List<ParkedEvent> events) {
    }

    /** One parked event; {@code diagnostics} holds the failure's exception types, never a message. */
    record ParkedEvent(long index, String eventId, String eventType, long aggregateSequence, Instant eventTime,
                       Instant parkedAt, Instant lastTouched, String causeType, String causeDescription,
                       Map<String, String> diagnostics) {
    }

    record Retry(boolean handled, long stillParked) {
    }

    record RetryAll(int sessionsRetried, long sessionsStillParked) {
    }
}
