package io.paysession.gateway.deadletter;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Every {@code payments.dead-letters.release-interval}, handles the parked events that nothing blocks any
 * more ({@link AxonDeadLetters#releaseUnblocked}), so that a retry racing with the processor never leaves a
 * session's newest events parked behind nothing.
 */
@Component
class UnblockedSessionRelease implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(UnblockedSessionRelease.class);

    private final AxonDeadLetters deadLetters;
    private final DeadLetterProperties properties;
    private ScheduledExecutorService scheduler;

    UnblockedSessionRelease(AxonDeadLetters deadLetters, DeadLetterProperties properties) {
        this.deadLetters = deadLetters;
        this.properties = properties;
    }

    @Override
    public synchronized void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "dead-letter-release");
            thread.setDaemon(true);
            return thread;
        });
        long interval = properties.releaseInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::releaseAll, interval, interval, TimeUnit.MILLISECONDS);
    }

    private void releaseAll() {
        for (String group : DeadLetteringProcessors.GROUPS) {
            try {
                deadLetters.releaseUnblocked(group);
            } catch (RuntimeException e) {
                // the database is down, or the processor stopping: the next round tries again
                log.warn("Releasing the unblocked parked events of {} failed: {}", group, e.toString());
            }
        }
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    /** After Axon's processors (which start in an earlier phase), before them at shutdown. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1000;
    }
}
