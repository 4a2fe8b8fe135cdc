package io.paysession.webhook.delivery;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Webhook delivery settings, {@code payments.webhooks.*}. The defaults are the contract of
 * decisions.md section 10; tests shorten them.
 *
 * @param initialRetryInterval             wait after the first failed attempt
 * @param retryMultiplier                  growth of the wait after each further failed attempt
 * @param maxRetryInterval                 the wait never grows beyond this
 * @param retryWindow                      from the notification's creation; after it, a failed notification is parked
 * @param attemptTimeout                   a partner that has not answered by then has failed the attempt
 * @param connectTimeout                   for opening the connection, within the attempt time-out
 * @param pollInterval                     how often the outbox is looked at when nothing wakes the dispatcher
 * @param maxConcurrentDeliveries          sends in flight on one node
 * @param maxConcurrentDeliveriesPerPartner sends in flight to one partner on one node, so that a slow partner
 *                                         cannot take every slot
 * @param claimLease                       how long a claimed notification is reserved for the node that claimed it;
 *                                         the node extends it every quarter of it while the send runs, so this is
 *                                         how long a dead node's webhook waits before another node sends it
 * @param batchSize                        notifications claimed at most in one query
 * @param allowedNetworks                  CIDR ranges (or single addresses) that webhooks may go to although
 *                                         {@link WebhookDestinations} refuses them by default (loopback,
 *                                         private, link-local, ...), e.g. {@code 127.0.0.0/8} for a receiver on
 *                                         the same machine; empty by default
 * @param reservedDeliveries               of the sends in flight on one node, how many only a partner with no
 *                                         send in flight may take, so that partners whose endpoints hang cannot
 *                                         fill the pool; at most max-concurrent-deliveries minus
 *                                         max-concurrent-deliveries-per-partner (less is used if configured higher)
 * @param circuitBreaker                   per partner endpoint: when to stop sending to it, and for how long
 * @param dispatch                         whether this node sends webhooks; a node with {@code false} still writes
 *                                         notifications to the outbox with their events, and leaves sending them to
 *                                         the nodes that dispatch
 */
@ConfigurationProperties("payments.webhooks")
public record WebhookProperties(@DefaultValue("10s") Duration initialRetryInterval,
                                @DefaultValue("2") double retryMultiplier,
                                @DefaultValue("1h") Duration maxRetryInterval,
                                @DefaultValue("72h") Duration retryWindow,
                                @DefaultValue("10s") Duration attemptTimeout,
                                @DefaultValue("5s") Duration connectTimeout,
                                @DefaultValue("250ms") Duration pollInterval,
                                @DefaultValue("32") int maxConcurrentDeliveries,
                                @DefaultValue("8") int maxConcurrentDeliveriesPerPartner,
                                @DefaultValue("8s") Duration claimLease,
                                @DefaultValue("100") int batchSize,
                                @DefaultValue List<String> allowedNetworks,
                                @DefaultValue("8") int reservedDeliveries,
                                @DefaultValue CircuitBreaker circuitBreaker,
                                @DefaultValue("true") boolean dispatch) {

    /**
     * {@code payments.webhooks.circuit-breaker.*}: after {@code failureThreshold} failed attempts in a row
     * (no answer in time, refused connection, TLS or name error, 5xx, 429) the partner's circuit opens: nothing
     * is sent to it for {@code openInterval}, then one probe goes; if it fails, the circuit opens again for
     * {@code openMultiplier} times as long, at most {@code maxOpenInterval}; if it succeeds, the circuit closes.
     */
    public record CircuitBreaker(@DefaultValue("5") int failureThreshold,
                                 @DefaultValue("10s") Duration openInterval,
                                 @DefaultValue("2") double openMultiplier,
                                 @DefaultValue("5m") Duration maxOpenInterval) {

        public CircuitBreaker {
            if (failureThreshold < 1) {
                throw new IllegalArgumentException("payments.webhooks.circuit-breaker.failure-threshold must be at least 1");
            }
            requirePositive(openInterval, "circuit-breaker.open-interval");
            requirePositive(maxOpenInterval, "circuit-breaker.max-open-interval");
            if (openMultiplier < 1) {
                throw new IllegalArgumentException("payments.webhooks.circuit-breaker.open-multiplier must be at least 1");
            }
        }
    }

    public WebhookProperties {
        requirePositive(initialRetryInterval, "initial-retry-interval");
        requirePositive(maxRetryInterval, "max-retry-interval");
        requirePositive(retryWindow, "retry-window");
        requirePositive(attemptTimeout, "attempt-timeout");
        requirePositive(connectTimeout, "connect-timeout");
        requirePositive(pollInterval, "poll-interval");
        requirePositive(claimLease, "claim-lease");
        if (retryMultiplier < 1) {
            throw new IllegalArgumentException("payments.webhooks.retry-multiplier must be at least 1");
        }
        if (maxConcurrentDeliveries < 1 || maxConcurrentDeliveriesPerPartner < 1 || batchSize < 1) {
            throw new IllegalArgumentException("payments.webhooks concurrency and batch size must be at least 1");
        }
        // Extended every quarter of itself while a send runs: shorter than a second, one slow database round
        // trip would let another node claim a webhook that is being sent.
        if (claimLease.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("payments.webhooks.claim-lease must be at least 1s");
        }
        allowedNetworks = allowedNetworks == null ? List.of() : List.copyOf(allowedNetworks);
        if (reservedDeliveries < 0) {
            throw new IllegalArgumentException("payments.webhooks.reserved-deliveries must not be negative");
        }
        Objects.requireNonNull(circuitBreaker, "circuit-breaker");
    }

    /** The reserve as used: it always leaves one partner room for its full share. */
    public int effectiveReservedDeliveries() {
        return Math.max(0, Math.min(reservedDeliveries, maxConcurrentDeliveries - maxConcurrentDeliveriesPerPartner));
    }

    private static void requirePositive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("payments.webhooks." + name + " must be positive");
        }
    }
}
