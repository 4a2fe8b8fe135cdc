package io.paysession.webhook.delivery;

import io.paysession.api.wire.WireFormat;
import io.paysession.webhook.notification.NotificationsRedelivered;
import io.paysession.webhook.notification.NotificationsStored;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends the outbox. One thread claims due notifications; a bounded pool sends them, so a partner that
 * hangs holds up only its own sends, and no more than its per-partner share of the pool; the last
 * (reserved) slots go only to partners with nothing in flight, so hanging partners never hold them all.
 * Each partner's endpoint has a circuit ({@link PartnerCircuits}): while it is open, the partner is left out
 * of the claims, and its notifications whose retry window ends meanwhile are parked unsent. The claim
 * thread wakes on every poll interval, when the projector commits new notifications, and when a send
 * ends (which may free a slot or unblock the next notification of a session).
 * <p>
 * At least once: a node that dies or stops mid-send leaves the row claimed, and it is sent again after
 * the lease ends, with the same webhook id. While a send runs, its node extends its claim every quarter of the lease,
 * so the lease can be short (a dead node's webhooks, and the later webhooks of their sessions, wait seconds, not a
 * minute) and still outlast the slowest send of a live node.
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

    private final PartnerCircuits circuits;
    private final Duration parkingSweepInterval;
    private Instant lastParkingSweep = Instant.EPOCH; // claimer thread only

    private final Semaphore wakeUps = new Semaphore(0);
    private final Object slots = new Object();
    private final Map<String, Integer> inFlightByProject = new HashMap<>(); // guarded by slots
    private int inFlight; // guarded by slots

    /** The notifications this node is sending: their claims are extended until the sends end. */
    private final Set<UUID> sending = ConcurrentHashMap.newKeySet();

    private volatile boolean running;
    private Thread claimer;
    private ExecutorService senders;
    private ScheduledExecutorService leaseRenewal;

    public WebhookDispatcher(DeliveryStore store, WebhookSender sender, WebhookProperties properties,
                             WebhookMetrics metrics) {
        this.store = store;
        this.sender = sender;
        this.properties = properties;
        this.retryPolicy = RetryPolicy.from(properties);
        this.metrics = metrics;
        this.circuits = new PartnerCircuits(properties.circuitBreaker(), metrics);
        this.parkingSweepInterval = properties.pollInterval().compareTo(Duration.ofSeconds(1)) > 0
                ? properties.pollInterval() : Duration.ofSeconds(1);
    }

    /**
     * The partner's circuit on this node ({@code CLOSED}, {@code OPEN}, {@code HALF_OPEN}); empty before its first
     * delivery here. Each node keeps its own, as the metric {@code payments.webhooks.circuit.state} shows.
     */
    public java.util.Optional<String> circuitState(String project) {
        return circuits.state(project).map(Enum::name);
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
        long renewEvery = Math.max(50, properties.claimLease().toMillis() / 4);
        leaseRenewal = Executors.newSingleThreadScheduledExecutor(task -> daemon(task, "webhook-lease-renewal"));
        leaseRenewal.scheduleWithFixedDelay(this::extendClaims, renewEvery, renewEvery, TimeUnit.MILLISECONDS);
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
        leaseRenewal.shutdownNow();
        log.info("Webhook dispatcher {} stopped", node);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** A node with {@code payments.webhooks.dispatch=false} writes the outbox but sends nothing. */
    @Override
    public boolean isAutoStartup() {
        return properties.dispatch();
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

    @EventListener
    public void on(NotificationsRedelivered redelivered) {
        circuits.probeNow(redelivered.projects());
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
        try (PartnerCircuits.Round round = circuits.round()) {
            int free;
            Set<String> skipped = new HashSet<>(round.blocked());
            synchronized (slots) {
                free = properties.maxConcurrentDeliveries() - inFlight;
                // in the reserve, only partners with nothing in flight may start a send
                boolean reserveOnly = inFlight >= properties.maxConcurrentDeliveries() - properties.effectiveReservedDeliveries();
                inFlightByProject.forEach((project, count) -> {
                    if (reserveOnly || count >= properties.maxConcurrentDeliveriesPerPartner()) {
                        skipped.add(project);
                    }
                });
            }
            parkExpiredWhileBlocked(round.blocked());
            if (free <= 0) {
                return false;
            }
            int wanted = Math.min(free, properties.batchSize());
            Instant now = now();
            List<ClaimedNotification> claimed = store.claim(node, wanted, skipped, now, now.plus(properties.claimLease()));
            for (ClaimedNotification notification : claimed) {
                dispatch(notification, round);
            }
            return claimed.size() == wanted;
        }
    }

    /** Sends the notification if its partner has a free slot and its circuit lets it through, else gives it back. */
    private void dispatch(ClaimedNotification notification, PartnerCircuits.Round round) {
        if (!takeSlot(notification.project())) {
            // One claim brought more of a partner than its share; the rest waits for a free slot.
            store.release(notification, node);
            return;
        }
        Optional<PartnerCircuits.Permit> permit = round.permit(notification.project(), notification.url());
        if (permit.isEmpty()) {
            // its circuit opened meanwhile, or its one probe is taken: untried, in order, window unchanged
            freeSlot(notification.project());
            store.release(notification, node);
            return;
        }
        sending.add(notification.id());
        try {
            senders.execute(() -> deliver(notification, permit.get()));
        } catch (RuntimeException e) {
            sending.remove(notification.id());
            permit.get().giveBack();
            freeSlot(notification.project());
            throw e;
        }
    }

    /** Keeps the claims of the sends in flight: a live node's slow send is never claimed by another node. */
    private void extendClaims() {
        try {
            store.extendClaims(node, List.copyOf(sending), now().plus(properties.claimLease()));
        } catch (RuntimeException e) {
            log.warn("Extending the claims of {} webhooks being sent failed ({}); tried again shortly", sending.size(),
                    e.getClass().getName());
        }
    }

    /**
     * Notifications of partners whose circuit is open are not attempted, but their retry window still ends:
     * those whose window is over are parked, as a failed attempt at the end of the window would park them.
     */
    private void parkExpiredWhileBlocked(Set<String> blocked) {
        Instant now = now();
        if (blocked.isEmpty() || now.isBefore(lastParkingSweep.plus(parkingSweepInterval))) {
            return;
        }
        lastParkingSweep = now;
        List<DeliveryStore.Parked> parked = store.parkUnsent(blocked, now.minus(properties.retryWindow()), now,
                "not sent: the partner's endpoint failed " + properties.circuitBreaker().failureThreshold()
                        + " attempts in a row and its circuit is open; the retry window ended");
        for (DeliveryStore.Parked notification : parked) {
            metrics.parked(notification.type());
            log.warn("Webhook {} parked unsent: session={} type={}; the circuit of partner {} is open and its retry "
                    + "window ended node={}", notification.id(), notification.sessionId(), notification.type(),
                    notification.project(), node);
        }
    }

    private void deliver(ClaimedNotification notification, PartnerCircuits.Permit permit) {
        try {
            Instant attemptedAt = now();
            AttemptResult result = sender.send(notification);
            permit.record(result);
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
            sending.remove(notification.id());
            freeSlot(notification.project());
            wakeUp();
        }
    }

    private static String supersededNote(DeliveryStore.Recorded recorded) {
        return recorded.settled() ? "" : " (redelivered meanwhile: it is sent again)";
    }

    /**
     * A slot for a send to the partner: while the pool has room, up to the partner's share; in the reserve
     * (the last slots of the pool), only if the partner has nothing in flight, so that partners whose endpoints
     * hang can never take every slot and a partner with a webhook to send always finds one.
     */
    private boolean takeSlot(String project) {
        synchronized (slots) {
            int mine = inFlightByProject.getOrDefault(project, 0);
            int max = properties.maxConcurrentDeliveries();
            if (inFlight >= max || mine >= properties.maxConcurrentDeliveriesPerPartner()
                    || (mine > 0 && inFlight >= max - properties.effectiveReservedDeliveries())) {
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
