package io.paysession.gateway.deadletter;

import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcDeadLetter;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.Decisions;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.EnqueuePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Parks every event whose handling failed after the bounded attempts, and decides what the queue keeps
 * about the failure: the exception types only. An exception's message may quote the data that made it
 * fail (a field of a request, a row), so it goes to the service log, never into the queue, its
 * diagnostics or the admin API. The log line names the event and the session, so the two can be joined.
 */
final class ParkingPolicy implements EnqueuePolicy<EventMessage<?>> {

    private static final Logger log = LoggerFactory.getLogger(ParkingPolicy.class);
    static final String FAILURE = "failure";
    static final String FAILED_REDELIVERIES = "failed_redeliveries";
    static final String LAST_FAILED_AT = "last_failed_at";

    private final String processingGroup;
    private final DeadLetterProperties properties;
    private final DeadLetterMetrics metrics;
    private final Clock clock;

    ParkingPolicy(String processingGroup, DeadLetterProperties properties, DeadLetterMetrics metrics, Clock clock) {
        this.processingGroup = processingGroup;
        this.properties = properties;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public EnqueueDecision<EventMessage<?>> decide(DeadLetter<? extends EventMessage<?>> letter, Throwable cause) {
        EventMessage<?> event = letter.message();
        boolean redelivery = letter instanceof JdbcDeadLetter;
        String types = typesOf(cause);
        if (redelivery) {
            log.error("Parked event {} ({}) of {} failed again in {} when retried; it stays parked",
                    event.getIdentifier(), event.getPayloadType().getSimpleName(), sequenceOf(event), processingGroup,
                    cause);
        } else {
            metrics.parked(processingGroup);
            log.error("Event {} ({}) of {} failed {} times in {}; parked with every later event of {} until an operator "
                            + "retries or drops them (/admin/v1/dead-letters)", event.getIdentifier(),
                    event.getPayloadType().getSimpleName(), sequenceOf(event), properties.attempts(), processingGroup,
                    sequenceOf(event), cause);
        }
        long failedRedeliveries = redelivery ? countOf(letter.diagnostics().get(FAILED_REDELIVERIES)) + 1 : 0;
        MetaData diagnostics = MetaData.with(FAILURE, types)
                .and(FAILED_REDELIVERIES, failedRedeliveries)
                .and(LAST_FAILED_AT, clock.instant().toString());
        return Decisions.enqueue(new HandlerFailure(types + " in " + processingGroup + "; the exception's message is "
                + "in the service log, not here"), ignored -> diagnostics);
    }

    /** The exception's type and the types of its causes, outermost first. */
    static String typesOf(Throwable cause) {
        List<String> types = new ArrayList<>();
        for (Throwable current = cause; current != null && types.size() < 5; current = current.getCause()) {
            types.add(current.getClass().getName());
            if (current.getCause() == current) {
                break;
            }
        }
        return String.join(" <- ", types);
    }

    private static String sequenceOf(EventMessage<?> event) {
        return event instanceof DomainEventMessage<?> domain ? domain.getAggregateIdentifier() : event.getIdentifier();
    }

    private static long countOf(Object value) {
        if (value instanceof Number number) {
            return number.longValue();
        }
        try {
            return value == null ? 0 : Long.parseLong(value.toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** What the queue stores as the cause: its type is this class, its message names the failure's types only. */
    static final class HandlerFailure extends RuntimeException {
        HandlerFailure(String description) {
            super(description, null, false, false);
        }
    }
}
