package io.paysession.gateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The settings every test instance of the service runs with: its own data directory, short time limits. */
public final class TestServiceProperties {

    public static final String ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

    private TestServiceProperties() {
    }

    public static Path newDataDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Map<String, Object> forDataDirectory(Path dataDirectory) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("payments.data.dir", dataDirectory.toString());
        properties.put("payments.admin.token", ADMIN_TOKEN);
        properties.put("payments.demo-partner.enabled", "false");
        properties.put("payments.sandbox.card-latency-min", "30ms");
        properties.put("payments.sandbox.card-latency-max", "120ms");
        properties.put("payments.sandbox.chargeback-after", "1s");
        properties.put("payments.webhooks.poll-interval", "50ms");
        properties.put("payments.webhooks.initial-retry-interval", "500ms");
        properties.put("payments.webhooks.attempt-timeout", "2s");
        properties.put("payments.webhooks.claim-lease", "10s");
        // the tests' webhook receivers listen on loopback, which is refused unless allowed
        properties.put("payments.webhooks.allowed-networks", "127.0.0.0/8");
        // an endpoint that failed in a row is left alone for a short while: tests wait seconds, not minutes
        properties.put("payments.webhooks.circuit-breaker.open-interval", "500ms");
        properties.put("payments.webhooks.circuit-breaker.max-open-interval", "2s");
        properties.put("axon.eventhandling.processors.payment-process.token-claim-interval", "500");
        properties.put("axon.eventhandling.processors.payment-process.token-claim-interval-time-unit", "MILLISECONDS");
        properties.put("server.port", "0");
        // time limits short enough to watch them expire, long enough for a script to act first
        properties.put("payments.limits.confirm", "60s");
        properties.put("payments.limits.qr-app-confirm", "3s");
        properties.put("payments.limits.payer-action", "20s");
        properties.put("payments.limits.wallet-and-bank-app-payer-action", "5s");
        properties.put("payments.limits.capture", "4s");
        properties.put("payments.limits.first-outcome-query", "1s");
        properties.put("db-scheduler.polling-interval", "200ms");
        properties.put("payments.vault.security-code-sweep.interval", "1s");
        // ErasureEndToEndTest runs the one-off encryption of stored events itself, after it made them old
        properties.put("payments.erasure.stored-events.interval", "1h");
        return properties;
    }
}
