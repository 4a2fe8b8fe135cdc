package io.paysession.gateway.idempotency;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Idempotency settings, {@code payments.idempotency.*}.
 *
 * @param lifetime      how long a key is remembered from its first use (decisions.md section 8: 24 h); after it,
 *                      the key is forgotten and may be used again for anything
 * @param lease         how long a running request holds its key before another request may decide that its node
 *                      died; far longer than any request takes
 * @param purgeInterval how often forgotten keys are deleted (the decisions stay)
 */
@ConfigurationProperties("payments.idempotency")
public record IdempotencyProperties(@DefaultValue("24h") Duration lifetime,
                                    @DefaultValue("60s") Duration lease,
                                    @DefaultValue("10m") Duration purgeInterval) {

    public IdempotencyProperties {
        if (lifetime.isNegative() || lifetime.isZero() || lease.isNegative() || lease.isZero()
                || purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("payments.idempotency durations must be positive");
        }
        // a key forgotten while its request still runs could be claimed by a second request that runs too
        if (lifetime.compareTo(lease) <= 0) {
            throw new IllegalArgumentException("payments.idempotency.lifetime must be longer than the lease");
        }
    }
}
