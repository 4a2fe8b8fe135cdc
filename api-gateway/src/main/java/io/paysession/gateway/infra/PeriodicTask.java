package io.paysession.gateway.infra;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A piece of housekeeping run on a thread of its own every {@code interval} while the application runs: it
 * starts after Axon's processors and stops before them. A failed run (the database is down) is logged and the
 * next run tries again.
 */
public abstract class PeriodicTask implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);

    private final String name;
    private final Duration interval;
    private ScheduledExecutorService scheduler;

    protected PeriodicTask(String name, Duration interval) {
        this.name = name;
        this.interval = interval;
    }

    protected abstract void runOnce();

    @Override
    public synchronized void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                runOnce();
            } catch (RuntimeException e) {
                log.warn("{} failed; the next run tries again: {}", name, e.toString());
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
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
