package io.paysession.gateway.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The security code sweeper, {@code payments.vault.security-code-sweep.*}.
 *
 * @param interval how often it looks for security codes to erase
 * @param grace    added to the longest confirmation window ({@code payments.limits.confirm},
 *                 {@code payments.limits.qr-app-confirm}) to give the age from which any security code is erased:
 *                 it covers the pre-check before the window opens and the authorization after it closes
 */
@ConfigurationProperties("payments.vault.security-code-sweep")
public record SecurityCodeSweepProperties(@DefaultValue("1m") Duration interval,
                                          @DefaultValue("15m") Duration grace) {

    public SecurityCodeSweepProperties {
        if (interval.isNegative() || interval.isZero() || grace.isNegative()) {
            throw new IllegalArgumentException(
                    "payments.vault.security-code-sweep.interval must be positive and .grace not negative");
        }
    }
}
