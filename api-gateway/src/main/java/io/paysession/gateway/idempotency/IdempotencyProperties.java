package io.paysession.gateway.idempotency;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Idempotency settings, {@code payments.idempotency.*}.
 *
 * @param lifetime      how long a key is remembered from its first use (decisions.md section 8: 24 h); after it,
 *                      the key is forgotten and may be used again for anything. Request signatures are remembered
 *                      as long.
 * @param lease         how long a running request holds its key without its node renewing it: after that, another
 *                      request with the key takes the node for dead. Short, so that a partner's retry after a crash
 *                      gets its answer within seconds; the node renews it while the request runs
 * @param renewEvery    how often a node renews the leases of the requests it runs (one statement for all of them);
 *                      well below the lease
 * @param purgeInterval how often forgotten keys and signatures are deleted (the decisions stay)
 */
@ConfigurationProperties("payments.idempotency")
public record IdempotencyProperties(@DefaultValue("24h") Duration lifetime,
                                    @DefaultValue("6s") Duration lease,
                                    @DefaultValue("2s") Duration renewEvery,
                                    @DefaultValue("10m") Duration purgeInterval) {

    public IdempotencyProperties {
        if (lifetime.isNegative() || lifetime.isZero() || lease.isNegative() || lease.isZero()
                || renewEvery.isNegative() || renewEvery.isZero()
                || purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("payments.idempotency durations must be positive");
        }
        // a key forgotten while its request still runs could be claimed by a second request that runs too
        if (lifetime.compareTo(lease) <= 0) {
            throw new IllegalArgumentException("payments.idempotency.lifetime must be longer than the lease");
        }
        // a renewal that comes after the lease ran out lets another node take a live request's key
        if (renewEvery.multipliedBy(2).compareTo(lease) > 0) {
            throw new IllegalArgumentException("payments.idempotency.renew-every must be at most half the lease");
        }
    }
}
