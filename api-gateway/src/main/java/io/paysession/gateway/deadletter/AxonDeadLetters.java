package io.paysession.gateway.deadletter;

import io.paysession.api.error.ErrorCode;
import io.paysession.gateway.http.HttpException;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcDeadLetter;
import org.axonframework.messaging.deadletter.Cause;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.SequencedDeadLetterProcessor;
import org.axonframework.messaging.deadletter.SequencedDeadLetterQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Lazy;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link DeadLetterAdministration} over Axon's sequenced dead-letter queues of the dead-lettering processors. */
@Component
class AxonDeadLetters implements DeadLetterAdministration {

    private static final Logger log = LoggerFactory.getLogger(AxonDeadLetters.class);

    /** Whether a session's first parked event never failed itself: it only queued behind events since handled. */
    private static final String UNBLOCKED_SESSION_EXISTS = "select exists (select 1 from dead_letter_entry d "
            + "where d.processing_group = ? and d.cause_type is null and d.sequence_index = (select min(f.sequence_index) "
            + "from dead_letter_entry f where f.processing_group = d.processing_group "
            + "and f.sequence_identifier = d.sequence_identifier))";
    /** Bounds one release round, so that a flood of events cannot keep it running. */
    private static final int RELEASE_ROUND = 100;

    private final EventProcessingConfiguration processing;
    private final TransactionManager transactions;
    private final JdbcTemplate jdbc;

    AxonDeadLetters(@Lazy EventProcessingConfiguration processing, TransactionManager transactions, JdbcTemplate jdbc,
                    DeadLetterMetrics metrics) {
        this.processing = processing;
        this.transactions = transactions;
        this.jdbc = jdbc;
        metrics.watch(this);
    }

    @Override
    public List<String> processingGroups() {
        return DeadLetteringProcessors.GROUPS;
    }

    @Override
    public Summary summary(String processingGroup) {
        SequencedDeadLetterQueue<EventMessage<?>> queue = queue(processingGroup);
        return new Summary(processingGroup, queue.amountOfSequences(), queue.size());
    }

    @Override
    public List<ParkedSession> sessions(String processingGroup, int limit) {
        List<ParkedSession> sessions = new ArrayList<>();
        for (Iterable<DeadLetter<? extends EventMessage<?>>> sequence : queue(processingGroup).deadLetters()) {
            if (sessions.size() >= limit) {
                break;
            }
            List<ParkedEvent> events = new ArrayList<>();
            String session = null;
            for (DeadLetter<? extends EventMessage<?>> letter : sequence) {
                session = sequenceOf(letter);
                events.add(parked(letter));
            }
            if (session != null) {
                sessions.add(new ParkedSession(processingGroup, session, events));
            }
        }
        return sessions;
    }

    @Override
    public Optional<ParkedSession> session(String processingGroup, String session) {
        List<ParkedEvent> events = new ArrayList<>();
        queue(processingGroup).deadLetterSequence(session).forEach(letter -> events.add(parked(letter)));
        return events.isEmpty() ? Optional.empty() : Optional.of(new ParkedSession(processingGroup, session, events));
    }

    @Override
    public Optional<Retry> retry(String processingGroup, String session) {
        SequencedDeadLetterQueue<EventMessage<?>> queue = queue(processingGroup);
        if (!queue.contains(session)) {
            return Optional.empty();
        }
        log.info("Operator retry of the parked events of {} in {}", session, processingGroup);
        boolean handled = processor(processingGroup).process(letter -> session.equals(sequenceOf(letter)));
        if (handled) {
            releaseUnblocked(processingGroup);
        }
        long stillParked = queue.sequenceSize(session);
        log.info("Retry of {} in {}: {}", session, processingGroup,
                stillParked == 0 ? "every parked event handled" : stillParked + " events still parked");
        return Optional.of(new Retry(handled && stillParked == 0, stillParked));
    }

    @Override
    public RetryAll retryAll(String processingGroup) {
        SequencedDeadLetterQueue<EventMessage<?>> queue = queue(processingGroup);
        long sessions = queue.amountOfSequences();
        log.info("Operator retry of the {} parked sessions of {}", sessions, processingGroup);
        SequencedDeadLetterProcessor<EventMessage<?>> processor = processor(processingGroup);
        // a session that fails again is touched and moves to the back, so each is tried once
        int retried = 0;
        for (long i = 0; i < sessions; i++) {
            processor.processAny();
            retried++;
        }
        return new RetryAll(retried, queue.amountOfSequences());
    }

    @Override
    public Optional<Integer> drop(String processingGroup, String session, String reason) {
        SequencedDeadLetterQueue<EventMessage<?>> queue = queue(processingGroup);
        List<String> dropped = new ArrayList<>();
        transactions.executeInTransaction(() -> {
            List<DeadLetter<? extends EventMessage<?>>> letters = new ArrayList<>();
            queue.deadLetterSequence(session).forEach(letters::add);
            for (DeadLetter<? extends EventMessage<?>> letter : letters) {
                queue.evict(letter);
                dropped.add(letter.message().getIdentifier() + " (" + letter.message().getPayloadType().getSimpleName()
                        + ")");
            }
        });
        if (dropped.isEmpty()) {
            return Optional.empty();
        }
        log.warn("Operator dropped {} parked events of {} in {}, never to be handled there: {}; reason: {}",
                dropped.size(), session, processingGroup, dropped, reason);
        return Optional.of(dropped.size());
    }

    /**
     * Handles the parked sessions of a group whose first parked event never failed: events that joined a
     * session's queue while a retry was handling it (the retry's removals commit only when it ends), and would
     * otherwise wait for a second retry although nothing blocks them any more. How many sessions were handled.
     */
    int releaseUnblocked(String processingGroup) {
        Optional<SequencedDeadLetterProcessor<EventMessage<?>>> processor =
                processing.sequencedDeadLetterProcessor(processingGroup);
        if (processor.isEmpty()) {
            return 0; // not started yet
        }
        int released = 0;
        while (released < RELEASE_ROUND
                && Boolean.TRUE.equals(jdbc.queryForObject(UNBLOCKED_SESSION_EXISTS, Boolean.class, processingGroup))
                && processor.get().process(letter -> letter.cause().isEmpty())) {
            released++;
        }
        if (released > 0) {
            log.info("Handled the parked events of {} sessions of {} that nothing blocked any more", released,
                    processingGroup);
        }
        return released;
    }

    private SequencedDeadLetterQueue<EventMessage<?>> queue(String processingGroup) {
        return processing.deadLetterQueue(processingGroup).orElseThrow(() -> notHere(processingGroup));
    }

    private SequencedDeadLetterProcessor<EventMessage<?>> processor(String processingGroup) {
        return processing.sequencedDeadLetterProcessor(processingGroup).orElseThrow(() -> notHere(processingGroup));
    }

    /** The group's processor does not run on this node (its role is elsewhere, or it has not started yet). */
    private static HttpException notHere(String processingGroup) {
        return new HttpException(409, ErrorCode.INVALID_REQUEST, "The processor of " + processingGroup
                + " does not run on this node (payments.roles, or not started yet): ask a node that runs it");
    }

    private static String sequenceOf(DeadLetter<? extends EventMessage<?>> letter) {
        if (letter instanceof JdbcDeadLetter<?> stored) {
            return stored.getSequenceIdentifier();
        }
        EventMessage<?> event = letter.message();
        return event instanceof DomainEventMessage<?> domain ? domain.getAggregateIdentifier() : event.getIdentifier();
    }

    private static ParkedEvent parked(DeadLetter<? extends EventMessage<?>> letter) {
        EventMessage<?> event = letter.message();
        long index = letter instanceof JdbcDeadLetter<?> stored ? stored.getSequenceIndex() : -1;
        long aggregateSequence = event instanceof DomainEventMessage<?> domain ? domain.getSequenceNumber() : -1;
        Map<String, String> diagnostics = new LinkedHashMap<>();
        letter.diagnostics().forEach((key, value) -> diagnostics.put(key, String.valueOf(value)));
        return new ParkedEvent(index, event.getIdentifier(), event.getPayloadType().getSimpleName(), aggregateSequence,
                event.getTimestamp(), letter.enqueuedAt(), letter.lastTouched(),
                letter.cause().map(Cause::type).orElse(null), letter.cause().map(Cause::message).orElse(null),
                diagnostics);
    }
}
