package io.paysession.gateway.deadletter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.function.ToLongFunction;

/**
 * Dead-letter meters, tagged by processing group only (never by session: a series per session is unbounded):
 * {@code payments.dead_letters.events} and {@code payments.dead_letters.sessions}, gauges read from the queue
 * at each scrape, and {@code payments.dead_letters.parked}, a counter of the events this node parked because
 * their handling failed (not of the later events that join them). An alert on {@code sessions > 0} is the one
 * that matters.
 */
@Component
public class DeadLetterMetrics {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterMetrics.class);

    public static final String EVENTS = "payments.dead_letters.events";
    public static final String SESSIONS = "payments.dead_letters.sessions";
    public static final String PARKED = "payments.dead_letters.parked";

    private final MeterRegistry registry;

    public DeadLetterMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (String group : DeadLetteringProcessors.GROUPS) {
            parkedCounter(group);
        }
    }

    /** Registers the gauges of the queues, read through {@code administration} at each scrape. */
    void watch(DeadLetterAdministration administration) {
        for (String group : DeadLetteringProcessors.GROUPS) {
            gauge(EVENTS, "Events parked in the processing group's dead-letter queue", group,
                    administration, admin -> admin.summary(group).events());
            gauge(SESSIONS, "Sessions (event sequences) parked in the processing group's dead-letter queue", group,
                    administration, admin -> admin.summary(group).sessions());
        }
    }

    /** An event whose handling failed after every attempt, parked with its session's later events. */
    void parked(String group) {
        parkedCounter(group).increment();
    }

    private Counter parkedCounter(String group) {
        return Counter.builder(PARKED)
                .description("Events whose handling failed after every attempt and that were parked")
                .tag("processing_group", group)
                .register(registry);
    }

    private void gauge(String name, String description, String group, DeadLetterAdministration administration,
                       ToLongFunction<DeadLetterAdministration> value) {
        Gauge.builder(name, administration, admin -> {
                    try {
                        return value.applyAsLong(admin);
                    } catch (RuntimeException e) {
                        // the database is down: the scrape says "unknown" rather than failing
                        log.debug("reading the dead-letter queue of {} for the metrics failed", group, e);
                        return Double.NaN;
                    }
                })
                .description(description)
                .tag("processing_group", group)
                .register(registry);
    }
}
