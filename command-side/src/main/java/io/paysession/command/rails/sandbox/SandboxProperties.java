package io.paysession.command.rails.sandbox;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/** How the sandbox rails behave: their latency is drawn uniformly from {@code [min, max]}. */
@ConfigurationProperties("payments.sandbox")
public record SandboxProperties(@DefaultValue("150ms") Duration cardLatencyMin,
                                @DefaultValue("600ms") Duration cardLatencyMax) {

    public SandboxProperties {
        if (cardLatencyMax.compareTo(cardLatencyMin) < 0) {
            throw new IllegalArgumentException("payments.sandbox.card-latency-max is below the minimum");
        }
    }
}
