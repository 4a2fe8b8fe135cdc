package io.paysession.webhook.delivery;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.paysession.webhook.notification.WebhookType;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Delivery meters. Tagged by webhook type and outcome only: a tag per project or session would give
 * every partner and session a series of its own, without bound. The one exception is the circuit state,
 * which is about a partner's endpoint: three series per partner that sent on this node (registered partners
 * are few and known), none per session.
 */
@Component
public class WebhookMetrics {

    public static final String DELIVERED = "payments.webhooks.delivered";
    public static final String RETRIED = "payments.webhooks.retried";
    public static final String PARKED = "payments.webhooks.parked";
    public static final String LATENCY = "payments.webhooks.delivery.latency";
    public static final String REDELIVERED = "payments.webhooks.redelivered";
    public static final String CIRCUIT = "payments.webhooks.circuit.state";

    private static final String DELIVERED_HELP = "Notifications delivered (2xx within the attempt time-out)";
    private static final String RETRIED_HELP = "Failed attempts that will be retried";
    private static final String PARKED_HELP = "Notifications parked at the end of their retry window";

    private final MeterRegistry registry;

    public WebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
        // registered at zero, so that a scrape shows them (and rates work) before the first webhook
        for (WebhookType type : WebhookType.values()) {
            counter(DELIVERED, DELIVERED_HELP, type.wireName());
            counter(RETRIED, RETRIED_HELP, type.wireName());
            counter(PARKED, PARKED_HELP, type.wireName());
        }
    }

    /** An attempt the partner answered with 2xx in time. */
    public void delivered(String type) {
        counter(DELIVERED, DELIVERED_HELP, type).increment();
    }

    /** A failed attempt that will be tried again. */
    public void retried(String type) {
        counter(RETRIED, RETRIED_HELP, type).increment();
    }

    /** A failed attempt at the end of the retry window: the notification is parked. */
    public void parked(String type) {
        counter(PARKED, PARKED_HELP, type).increment();
    }

    /** Notifications an operator asked to send again. */
    public void redelivered(String operation, int count) {
        Counter.builder(REDELIVERED)
                .description("Notifications made pending again by an operator")
                .tag("operation", operation)
                .register(registry)
                .increment(count);
    }

    /**
     * The partner's circuit on this node: {@code payments.webhooks.circuit.state{project, state}} is 1 for the
     * state it is in ({@code closed}, {@code open}, {@code half_open}) and 0 for the others.
     */
    void circuit(String project, Supplier<CircuitBreaker.State> state) {
        for (CircuitBreaker.State shown : List.of(CircuitBreaker.State.CLOSED, CircuitBreaker.State.OPEN,
                CircuitBreaker.State.HALF_OPEN)) {
            Gauge.builder(CIRCUIT, () -> state.get() == shown ? 1 : 0)
                    .description("State of the partner's webhook circuit breaker on this node (1: the current one)")
                    .tag("project", project)
                    .tag("state", shown.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
    }

    /** One attempt's time from sending to the answer (or the time-out or error). */
    public void attempt(String type, AttemptResult result) {
        Timer.builder(LATENCY)
                .description("Time of one delivery attempt, from sending to the answer")
                .tag("type", type)
                .tag("outcome", outcome(result))
                .register(registry)
                .record(result.latencyMillis(), TimeUnit.MILLISECONDS);
    }

    /** {@code delivered}, {@code http_error} (answered, not 2xx) or {@code no_answer} (time-out, refused, ...). */
    static String outcome(AttemptResult result) {
        if (result.delivered()) {
            return "delivered";
        }
        return result.httpStatus() != null ? "http_error" : "no_answer";
    }

    private Counter counter(String name, String description, String type) {
        return Counter.builder(name).description(description).tag("type", type).register(registry);
    }
}
