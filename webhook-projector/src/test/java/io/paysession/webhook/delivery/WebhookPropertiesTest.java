package io.paysession.webhook.delivery;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookPropertiesTest {

    @Test
    void defaultsAreTheDeliveryContractOfDecisionsSection10() {
        WebhookProperties defaults = TestProperties.bind(Map.of());

        assertThat(defaults.initialRetryInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.retryMultiplier()).isEqualTo(2.0);
        assertThat(defaults.maxRetryInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(defaults.retryWindow()).isEqualTo(Duration.ofHours(72));
        assertThat(defaults.attemptTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(defaults.maxConcurrentDeliveries()).isEqualTo(32);
        assertThat(defaults.maxConcurrentDeliveriesPerPartner()).isEqualTo(8);
        assertThat(defaults.claimLease()).isEqualTo(Duration.ofSeconds(8));
        assertThat(defaults.batchSize()).isEqualTo(100);
        assertThat(defaults.allowedNetworks()).as("no internal network is allowed unless configured").isEmpty();
        assertThat(defaults.reservedDeliveries()).isEqualTo(8);
        assertThat(defaults.effectiveReservedDeliveries()).isEqualTo(8);
        assertThat(defaults.circuitBreaker()).isEqualTo(new WebhookProperties.CircuitBreaker(5, Duration.ofSeconds(10), 2,
                Duration.ofMinutes(5)));
    }

    @Test
    void everySettingCanBeChangedInConfiguration() {
        WebhookProperties properties = TestProperties.bind(Map.ofEntries(
                Map.entry("initial-retry-interval", "1s"),
                Map.entry("retry-multiplier", "3"),
                Map.entry("max-retry-interval", "5s"),
                Map.entry("retry-window", "30s"),
                Map.entry("attempt-timeout", "2s"),
                Map.entry("connect-timeout", "1s"),
                Map.entry("poll-interval", "20ms"),
                Map.entry("max-concurrent-deliveries", "4"),
                Map.entry("max-concurrent-deliveries-per-partner", "2"),
                Map.entry("claim-lease", "3s"),
                Map.entry("batch-size", "10"),
                Map.entry("allowed-networks", "127.0.0.0/8,::1/128"),
                Map.entry("reserved-deliveries", "1"),
                Map.entry("circuit-breaker.failure-threshold", "3"),
                Map.entry("circuit-breaker.open-interval", "2s"),
                Map.entry("circuit-breaker.open-multiplier", "3"),
                Map.entry("circuit-breaker.max-open-interval", "1m"),
                Map.entry("dispatch", "false")));

        assertThat(properties).isEqualTo(new WebhookProperties(Duration.ofSeconds(1), 3, Duration.ofSeconds(5),
                Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMillis(20), 4, 2,
                Duration.ofSeconds(3), 10, List.of("127.0.0.0/8", "::1/128"), 1,
                new WebhookProperties.CircuitBreaker(3, Duration.ofSeconds(2), 3, Duration.ofMinutes(1)), false));
    }

    @Test
    void aLeaseUnderASecondIsRefused() {
        assertThatThrownBy(() -> TestProperties.bind(Map.of("claim-lease", "900ms")))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasStackTraceContaining("claim-lease must be at least 1s");
    }

    @Test
    void aLeaseShorterThanTheAttemptTimeoutIsTaken() {
        // the node extends its claims while a send runs: the lease need not cover a whole attempt
        assertThat(TestProperties.bind(Map.of("attempt-timeout", "10s", "claim-lease", "4s")).claimLease())
                .isEqualTo(Duration.ofSeconds(4));
    }
}
