package io.paysession.command.session;

import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import org.axonframework.commandhandling.CommandResultMessage;
import org.axonframework.config.Configuration;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.DeadlineMessage;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.messaging.ScopeDescriptor;
import org.axonframework.test.deadline.ScheduledDeadlineInfo;
import org.axonframework.test.deadline.StubDeadlineManager;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.axonframework.commandhandling.GenericCommandMessage.asCommandMessage;

/**
 * Session aggregates on Axon's own command bus, event-sourcing repository and in-memory event store, with
 * Axon's {@link StubDeadlineManager} as the deadline manager and a clock that reads the stub's time. Unlike
 * {@code AggregateTestFixture} (one given-when-then per fixture) it takes any number of commands and time
 * steps in a row, keeps the deadlines every command scheduled, and shows the events each step stored.
 * Deadlines are delivered the way the production deadline managers deliver them: in a unit of work, to the
 * scope-aware components of the configuration.
 * <p>
 * One driver serves many runs, one session each ({@link #begin}), because building an Axon configuration
 * costs more than a whole run. Each run gets an empty event store (the in-memory store scans every event it
 * holds on each read) and starts at the same time, and {@link #end} drops the run's deadlines, so that no run
 * sees another's.
 */
final class SessionDriver implements AutoCloseable {

    static final Instant START = Instant.parse("2026-11-22T10:15:30.123456Z");

    private final StubDeadlineManager deadlines = new StubDeadlineManager(START);
    private final RunStorage storage = new RunStorage();
    private final Configuration axon;
    private SessionId sessionId;

    SessionDriver(SessionTimeLimits limits) {
        Clock clock = new StubClock(deadlines);
        // no auto-located modules: the Axon Server connector on the class path would try to connect
        axon = DefaultConfigurer.defaultConfiguration(false)
                .configureEmbeddedEventStore(config -> storage)
                .configureAggregate(Session.class)
                // components of the configuration are what the aggregate's handler parameters resolve to
                .registerComponent(Clock.class, config -> clock)
                .registerComponent(SessionTimeLimits.class, config -> limits)
                .registerComponent(DeadlineManager.class, config -> deadlines)
                .registerComponent(SessionClocks.class, config -> SessionClocks.real(clock))
                .buildConfiguration();
        axon.start();
    }

    /** Starts a run with {@code session} at {@link #START}, with an empty store and no deadlines. */
    void begin(SessionId session) {
        storage.empty();
        deadlines.initializeAt(START);
        sessionId = session;
    }

    /** Ends the run: its deadlines that did not fire are dropped. */
    void end() {
        for (String name : List.of(Session.CONFIRM_TIMEOUT, Session.PAYER_ACTION_TIMEOUT, Session.CAPTURE_TIMEOUT,
                Session.OUTCOME_QUERY)) {
            deadlines.cancelAll(name);
        }
        if (!deadlines.getScheduledDeadlines().isEmpty()) {
            throw new IllegalStateException("deadlines the driver does not know: "
                    + deadlines.getScheduledDeadlines());
        }
        sessionId = null;
    }

    /** Dispatches {@code command}; empty when it succeeded, otherwise what it was answered with. */
    Optional<Throwable> send(Object command) {
        AtomicReference<CommandResultMessage<?>> answer = new AtomicReference<>();
        axon.commandBus().dispatch(asCommandMessage(command), (message, result) -> answer.set(result));
        CommandResultMessage<?> result = answer.get();
        if (result == null) {
            throw new IllegalStateException("the local command bus did not answer " + command);
        }
        return result.isExceptional() ? Optional.of(result.exceptionResult()) : Optional.empty();
    }

    /**
     * Lets {@code time} pass, firing every deadline that falls due. A deadline handler that throws surfaces
     * here (wrapped by the stub).
     */
    void letTimePass(Duration time) {
        deadlines.advanceTimeBy(time, this::deliver);
    }

    /** The time until the last-due deadline of {@code name} still scheduled (the current stage's), if any. */
    Optional<Duration> untilDeadline(String name) {
        return deadlines.getScheduledDeadlines().stream()
                .filter(deadline -> deadline.getDeadlineName().equals(name))
                .map(ScheduledDeadlineInfo::getScheduleTime)
                .max(Instant::compareTo)
                .map(at -> Duration.between(now(), at));
    }

    /** The time until the earliest deadline still scheduled, if there is one. */
    Optional<Duration> untilNextDeadline() {
        return deadlines.getScheduledDeadlines().stream()
                .map(ScheduledDeadlineInfo::getScheduleTime)
                .min(Instant::compareTo)
                .map(at -> Duration.between(now(), at));
    }

    Instant now() {
        return deadlines.getCurrentDateTime();
    }

    /** The session's events from sequence number {@code first} on; empty while the session does not exist. */
    List<SessionEvent> eventsFrom(int first) {
        return axon.eventStore().readEvents(sessionId.value(), first).asStream()
                .map(message -> (SessionEvent) message.getPayload())
                .toList();
    }

    private void deliver(ScopeDescriptor scope, DeadlineMessage<?> deadline) throws Exception {
        for (var component : axon.scopeAwareProvider().provideScopeAwareStream(scope)
                .filter(component -> component.canResolve(scope)).toList()) {
            component.send(deadline, scope);
        }
    }

    @Override
    public void close() {
        axon.shutdown();
    }

    /** An in-memory event store that can be emptied between runs. */
    private static final class RunStorage implements EventStorageEngine {

        private EventStorageEngine current = new InMemoryEventStorageEngine();

        void empty() {
            current = new InMemoryEventStorageEngine();
        }

        @Override
        public void appendEvents(List<? extends EventMessage<?>> events) {
            current.appendEvents(events);
        }

        @Override
        public void storeSnapshot(DomainEventMessage<?> snapshot) {
            current.storeSnapshot(snapshot);
        }

        @Override
        public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
            return current.readEvents(trackingToken, mayBlock);
        }

        @Override
        public DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
            return current.readEvents(aggregateIdentifier, firstSequenceNumber);
        }

        @Override
        public Optional<DomainEventMessage<?>> readSnapshot(String aggregateIdentifier) {
            return current.readSnapshot(aggregateIdentifier);
        }

        @Override
        public Optional<Long> lastSequenceNumberFor(String aggregateIdentifier) {
            return current.lastSequenceNumberFor(aggregateIdentifier);
        }

        @Override
        public TrackingToken createTailToken() {
            return current.createTailToken();
        }

        @Override
        public TrackingToken createHeadToken() {
            return current.createHeadToken();
        }

        @Override
        public TrackingToken createTokenAt(Instant dateTime) {
            return current.createTokenAt(dateTime);
        }
    }

    /** The clock of the aggregate: the stub's time, so that events and deadlines agree on "now". */
    private static final class StubClock extends Clock {

        private final StubDeadlineManager deadlines;

        StubClock(StubDeadlineManager deadlines) {
            this.deadlines = deadlines;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the session's clock is UTC");
        }

        @Override
        public Instant instant() {
            return deadlines.getCurrentDateTime();
        }
    }
}
