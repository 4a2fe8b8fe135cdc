package io.paysession.command.rails.sandbox;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * How the sandbox rails behave: their latency is drawn uniformly from {@code [min, max]}; the acquirer's answer
 * for the card that stays unknown ({@code 4000000000000127}) is unknown to every query for {@code longUnknown}
 * after the authorization, longer than the engine's first series of queries (15.5 minutes by default), so that
 * the session shows {@code error} before it succeeds.
 */
@ConfigurationProperties("payments.sandbox")
public record SandboxProperties(@DefaultValue("150ms") Duration cardLatencyMin,
                                @DefaultValue("600ms") Duration cardLatencyMax,
                                @DefaultValue("20m") Duration longUnknown) {


    public SandboxProperties {
        if (cardLatencyMax.compareTo(cardLatencyMin) < 0) {
            throw new IllegalArgumentException("payments.sandbox.card-latency-max is below the minimum");
        }
    }
}
