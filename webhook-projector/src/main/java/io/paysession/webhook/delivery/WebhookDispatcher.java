package io.paysession.webhook.delivery;

import io.paysession.api.wire.WireFormat;
import io.paysession.webhook.notification.NotificationsStored;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Sends the outbox. One thread claims due notifications; a bounded pool sends them, so a partner that
 * hangs holds up only its own sends, and no more than its per-partner share of the pool. The claim
 * thread wakes on every poll interval, when the projector commits new notifications, and when a send
 * ends (which may free a slot or unblock the next notification of a session).
 * <p>
 * At least once: a node that dies or stops mid-send leaves the row claimed, and it is sent again after
 * the lease ends, with the same webhook id.
 */
@Component
public class WebhookDispatcher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);

    private final DeliveryStore store;
    private final WebhookSender sender;
    private final WebhookProperties properties;
    private final RetryPolicy retryPolicy;
    private final WebhookMetrics metrics;
    private final Clock clock = Clock.systemUTC();
    private final String node = "pid" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);

    private final Semaphore wakeUps = new Semaphore(0);
    private final Object slots = new Object();
    private final Map<String, Integer> inFlightByProject = new HashMap<>(); // guarded by slots
    private int inFlight; // guarded by slots

    private volatile boolean running;
    private Thread claimer;
    private ExecutorService senders;

    public WebhookDispatcher(DeliveryStore store, WebhookSender sender, WebhookProperties properties,
                             WebhookMetrics metrics) {
        this.store = store;
        this.sender = sender;
        this.properties = properties;
        this.retryPolicy = RetryPolicy.from(properties);
        this.metrics = metrics;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(properties.maxConcurrentDeliveries(),
                properties.maxConcurrentDeliveries(), 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                task -> daemon(task, "webhook-send-" + threads.incrementAndGet()));
        pool.allowCoreThreadTimeOut(true);
        senders = pool;
        running = true;
        claimer = daemon(this::claimUntilStopped, "webhook-dispatcher");
        claimer.start();
        log.info("Webhook dispatcher {} started", node);
    }

    /** Stops claiming, lets sends in flight finish within an attempt time-out, then interrupts them. */
    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        wakeUp();
        try {
            claimer.join(properties.attemptTimeout().toMillis());
            senders.shutdown();
            if (!senders.awaitTermination(properties.attemptTimeout().toMillis() + 1_000, TimeUnit.MILLISECONDS)) {
                senders.shutdownNow();
            }
        } catch (InterruptedException e) {
            senders.shutdownNow();
            Thread.currentThread().interrupt();
        }
        log.info("Webhook dispatcher {} stopped", node);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Look at the outbox now rather than at the next poll. */
    public void wakeUp() {
        if (wakeUps.availablePermits() == 0) {
            wakeUps.release();
        }
    }

    @EventListener
    public void on(NotificationsStored stored) {
        wakeUp();
    }

    private void claimUntilStopped() {
        while (running) {
            boolean mayHaveMore = false;
            try {
                mayHaveMore = claimAndSend();
            } catch (RuntimeException e) {
                log.warn("Claiming webhooks failed; trying again in {} ms", properties.pollInterval().toMillis(), e);
            }
            if (!mayHaveMore) {
                awaitWakeUp();
            }
        }
    }

    /** True when the claim was full, so more may be due right away. */
    private boolean claimAndSend() {
        int free;
        Set<String> saturated;
        synchronized (slots) {
            free = properties.maxConcurrentDeliveries() - inFlight;
            saturated = inFlightByProject.entrySet().stream()
                    .filter(entry -> entry.getValue() >= properties.maxConcurrentDeliveriesPerPartner())
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
        }
        if (free <= 0) {
            return false;
        }
        int wanted = Math.min(free, properties.batchSize());
        Instant now = now();
        List<ClaimedNotification> claimed = store.claim(node, wanted, saturated, now, now.plus(properties.claimLease()));
        for (ClaimedNotification notification : claimed) {
            if (takeSlot(notification.project())) {
                senders.execute(() -> deliver(notification));
            } else {
                // One claim brought more of a partner than its share; the rest waits for a free slot.
                store.release(notification, node);
            }
        }
        return claimed.size() == wanted;
    }

    private void deliver(ClaimedNotification notification) {
        try {
            Instant attemptedAt = now();
            AttemptResult result = sender.send(notification);
            metrics.attempt(notification.type(), result);
            if (result.delivered()) {
                DeliveryStore.Recorded recorded = store.recordDelivered(notification, node, attemptedAt, result, now());
                if (recorded.settled()) {
                    metrics.delivered(notification.type());
                }
                log.info("Webhook {} delivered: session={} type={} status={} attempt={} latency={}ms node={}{}",
                        notification.id(), notification.sessionId(), notification.type(), result.httpStatus(),
                        recorded.attemptNumber(), result.latencyMillis(), node, supersededNote(recorded));
            } else {
                Instant now = now();
                RetryPolicy.Decision decision = retryPolicy.afterFailedAttempt(notification.attemptsInWindow() + 1,
                        notification.windowStartedAt(), now);
                DeliveryStore.Recorded recorded = store.recordFailure(notification, node, attemptedAt, result, decision, now);
                if (recorded.settled()) {
                    if (decision instanceof RetryPolicy.Park) {
                        metrics.parked(notification.type());
                    } else {
                        metrics.retried(notification.type());
                    }
                }
                log.warn("Webhook {} attempt {} failed: session={} type={} {}; {} node={}{}",
                        notification.id(), recorded.attemptNumber(), notification.sessionId(), notification.type(),
                        result.outcome(),
                        decision instanceof RetryPolicy.RetryAt retry ? "next attempt at " + retry.at() : "parked",
                        node, supersededNote(recorded));
            }
        } catch (RuntimeException e) {
            log.warn("Recording webhook {} of session {} failed; it is retried when its claim expires",
                    notification.id(), notification.sessionId(), e);
        } finally {
            freeSlot(notification.project());
            wakeUp();
        }
    }

    private static String supersededNote(DeliveryStore.Recorded recorded) {
        return recorded.settled() ? "" : " (redelivered meanwhile: it is sent again)";
    }

    private boolean takeSlot(String project) {
        synchronized (slots) {
            if (inFlightByProject.getOrDefault(project, 0) >= properties.maxConcurrentDeliveriesPerPartner()) {
                return false;
            }
            inFlight++;
            inFlightByProject.merge(project, 1, Integer::sum);
            return true;
        }
    }

    private void freeSlot(String project) {
        synchronized (slots) {
            inFlight--;
            inFlightByProject.computeIfPresent(project, (key, count) -> count > 1 ? count - 1 : null);
        }
    }

    private void awaitWakeUp() {
        try {
            wakeUps.tryAcquire(properties.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
            wakeUps.drainPermits();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Daemon: a JVM exiting without closing the context must not wait for partners; leases cover that case. */
    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    private Instant now() {
        return WireFormat.now(clock);
    }
}
