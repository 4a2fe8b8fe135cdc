package io.paysession.command.process;

import io.paysession.api.node.NodeRoles;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Takes over the rail calls nobody will answer: those of a node that died (or stopped) before their answers were
 * recorded, and those given back to be made again ({@link RailCalls}). Every {@code payments.rails.recovery-period}
 * it locks one due call at a time ({@code FOR UPDATE SKIP LOCKED}: each goes to one node), reads the event that
 * started it from its session's stream, and hands it to the process that handles it, in one transaction; the
 * process makes the call again after the commit, where a money-moving call is only queried. It also keeps this
 * node's heartbeat, the other nodes' sign that its calls are still awaited.
 * <p>
 * It starts before the processors (so that the node is alive before it starts any call) and stops after them.
 */
@Component
@ConditionalOnExpression(NodeRoles.RUNS_PROCESSES)
public class RailCallRecovery implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RailCallRecovery.class);
    /** At most this many calls per round, so that a failing one cannot hold the thread. */
    private static final int PER_ROUND = 100;

    private final RailCallsInFlight inFlight;
    private final TransactionTemplate transaction;
    private final EventStore events;
    private final List<AnnotationEventHandlerAdapter> processes;
    private final Duration period;
    private final Duration heartbeat;
    private ScheduledExecutorService scheduler;

    public RailCallRecovery(RailCallsInFlight inFlight, PlatformTransactionManager transactions, EventStore events,
                            PaymentProcess payments, PayoutProcess payouts,
                            @Value("${payments.rails.recovery-period:1s}") Duration period,
                            @Value("${payments.rails.node-timeout:10s}") Duration nodeTimeout) {
        this.inFlight = inFlight;
        this.transaction = new TransactionTemplate(transactions);
        this.events = events;
        this.processes = List.of(new AnnotationEventHandlerAdapter(payments),
                new AnnotationEventHandlerAdapter(payouts));
        this.period = period;
        Duration fifth = nodeTimeout.dividedBy(5);
        this.heartbeat = fifth.compareTo(Duration.ofMillis(200)) < 0 ? Duration.ofMillis(200) : fifth;
    }

    @Override
    public void start() {
        inFlight.beat();
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "rail-call-recovery");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::beat, heartbeat.toMillis(), heartbeat.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::round, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
        try {
            inFlight.leave();
        } catch (RuntimeException e) {
            log.warn("This node could not say it stops ({}); its calls go to the others after the node time-out",
                    e.getClass().getName());
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    /** Early: started before Axon's processors, stopped after them. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1_000;
    }

    private void beat() {
        try {
            inFlight.beat();
        } catch (RuntimeException e) {
            log.warn("Heartbeat not written ({})", e.getClass().getName());
        }
    }

    /** Takes over every due call, one transaction each; the number taken over. */
    public int round() {
        int taken = 0;
        try {
            while (taken < PER_ROUND && Boolean.TRUE.equals(transaction.execute(status -> takeOverOne()))) {
                taken++;
            }
        } catch (RuntimeException e) {
            log.warn("Taking over a rail call failed ({}); it is tried again in the next round", e.getClass().getName(),
                    e);
        }
        return taken;
    }

    private boolean takeOverOne() {
        Optional<RailCallsInFlight.Due> due = inFlight.claimDue();
        if (due.isEmpty()) {
            return false;
        }
        String eventId = due.get().eventId();
        Optional<? extends EventMessage<?>> event = events.readEvents(due.get().session().value(), 0L).asStream()
                .filter(message -> message.getIdentifier().equals(eventId)).findFirst();
        if (event.isEmpty()) {
            log.error("The event {} of a rail call in flight is not in the stream of {}; the call is dropped", eventId,
                    due.get().session().value());
            inFlight.answered(eventId);
            return true;
        }
        for (AnnotationEventHandlerAdapter process : processes) {
            if (process.canHandle(event.get())) {
                log.info("The rail call of {} for {} is taken over", event.get().getPayloadType().getSimpleName(),
                        due.get().session().value());
                try {
                    process.handle(event.get());
                } catch (Exception e) {
                    throw new IllegalStateException("handing the event back to its process failed", e);
                }
                return true;
            }
        }
        log.error("No process handles {}, the event of a rail call in flight; the call is dropped",
                event.get().getPayloadType().getName());
        inFlight.answered(eventId);
        return true;
    }
}
