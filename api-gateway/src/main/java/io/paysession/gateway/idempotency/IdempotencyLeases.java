package io.paysession.gateway.idempotency;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the leases of the keys this node's requests hold: every {@code renew-every}, one statement extends the
 * lease of all of them. A request that runs long keeps its key; a node that dies stops renewing, and its keys are
 * free for a retry on another node within one lease. Renewal is a liveness signal only: a request that lost its key
 * anyway (a node paused past its lease) is stopped by the fence before its command ({@link IdempotencyFence}).
 */
@Component
public class IdempotencyLeases implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyLeases.class);

    private final IdempotencyStore store;
    private final IdempotencyProperties properties;
    private final Set<IdempotencyClaim> held = ConcurrentHashMap.newKeySet();
    private final Object renewal = new Object();
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "idempotency-lease-renewal");
        thread.setDaemon(true);
        return thread;
    });

    public IdempotencyLeases(IdempotencyStore store, IdempotencyProperties properties) {
        this.store = store;
        this.properties = properties;
        long every = properties.renewEvery().toMillis();
        renewer.scheduleWithFixedDelay(this::renewAll, every, every, TimeUnit.MILLISECONDS);
    }

    void hold(IdempotencyClaim claim) {
        held.add(claim);
    }

    /**
     * Stops renewing the claim's lease; once this returns, no renewal will touch the key again, so the request may
     * complete or give up its key without a late renewal holding it for another lease.
     */
    void release(IdempotencyClaim claim) {
        synchronized (renewal) {
            held.remove(claim);
        }
    }

    void renewAll() {
        synchronized (renewal) {
            List<IdempotencyClaim> running = List.copyOf(held);
            if (running.isEmpty()) {
                return;
            }
            try {
                int renewed = store.renew(running, properties.lease());
                if (renewed < running.size()) {
                    log.debug("Renewed {} of {} idempotency leases (the others are locked by their own command, or "
                            + "lost)", renewed, running.size());
                }
            } catch (RuntimeException e) {
                log.warn("Idempotency leases not renewed: {}", e.toString());
            }
        }
    }

    @Override
    public void destroy() {
        renewer.shutdownNow();
    }
}
