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
 * @param claimLease                       how long a claimed notification is reserved for the node that claimed it
 * @param batchSize                        notifications claimed at most in one query
 * @param allowedNetworks                  CIDR ranges (or single addresses) that webhooks may go to although
 *                                         {@link WebhookDestinations} refuses them by default (loopback,
 *                                         private, link-local, ...), e.g. {@code 127.0.0.0/8} for a receiver on
 *                                         the same machine; empty by default
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
                                @DefaultValue("60s") Duration claimLease,
                                @DefaultValue("100") int batchSize,
                                @DefaultValue List<String> allowedNetworks) {

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
        // A send that outlives its lease may be claimed and sent again by another node while it runs.
        if (claimLease.compareTo(attemptTimeout) <= 0) {
            throw new IllegalArgumentException("payments.webhooks.claim-lease must be longer than attempt-timeout");
        }
        allowedNetworks = allowedNetworks == null ? List.of() : List.copyOf(allowedNetworks);
    }

    private static void requirePositive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("payments.webhooks." + name + " must be positive");
        }
    }
}
