package io.paysession.webhook.delivery;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.HashMap;
import java.util.Map;

/** {@link WebhookProperties} bound the way the application binds them, from {@code payments.webhooks.*} settings. */
final class TestProperties {

    private TestProperties() {
    }

    static WebhookProperties bind(Map<String, String> settings) {
        Map<String, String> prefixed = new HashMap<>();
        settings.forEach((key, value) -> prefixed.put("payments.webhooks." + key, value));
        return new Binder(new MapConfigurationPropertySource(prefixed))
                .bindOrCreate("payments.webhooks", Bindable.of(WebhookProperties.class));
    }

    /** Short intervals for tests against a real database and HTTP server; {@code overrides} win. */
    static WebhookProperties fast(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.ofEntries(
                // an endpoint that fails in a row is left alone briefly, as tests wait seconds, not minutes
                Map.entry("circuit-breaker.open-interval", "200ms"),
                Map.entry("circuit-breaker.max-open-interval", "1s")));
        settings.putAll(Map.of(
                "initial-retry-interval", "100ms",
                "max-retry-interval", "1s",
                "retry-window", "30s",
                "attempt-timeout", "2s",
                "connect-timeout", "1s",
                "poll-interval", "50ms",
                "claim-lease", "10s",
                // the partners' test endpoints listen on loopback
                "allowed-networks", "127.0.0.0/8"));
        settings.putAll(overrides);
        return bind(settings);
    }
}
