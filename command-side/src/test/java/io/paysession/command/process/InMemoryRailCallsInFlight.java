package io.paysession.command.process;

import io.paysession.api.session.SessionId;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The calls in flight without their table, for the processes' own tests: what is in flight, how often each was
 * given back and with which delay. Nobody takes them over here: a test hands the event to the process again itself.
 */
final class InMemoryRailCallsInFlight implements RailCallsInFlight {

    private final Map<String, Integer> attempts = new LinkedHashMap<>();
    private final Map<String, Duration> givenBack = new LinkedHashMap<>();

    @Override
    public synchronized void started(String eventId, SessionId session) {
        attempts.putIfAbsent(eventId, 0);
        givenBack.remove(eventId);
    }

    @Override
    public synchronized void answered(String eventId) {
        attempts.remove(eventId);
        givenBack.remove(eventId);
    }

    @Override
    public synchronized void retryAfter(String eventId, Duration delay) {
        attempts.computeIfPresent(eventId, (id, made) -> made + 1);
        givenBack.put(eventId, delay);
    }

    @Override
    public synchronized int attempts(String eventId) {
        return attempts.getOrDefault(eventId, 0);
    }

    @Override
    public Optional<Due> claimDue() {
        return Optional.empty();
    }

    @Override
    public void beat() {
    }

    @Override
    public void leave() {
    }

    /** The events whose calls are in flight: started, not answered. */
    synchronized Map<String, Integer> inFlight() {
        return Map.copyOf(attempts);
    }

    /** The events given back to be handled again, with the delay asked. */
    synchronized Map<String, Duration> givenBack() {
        return Map.copyOf(givenBack);
    }
}
