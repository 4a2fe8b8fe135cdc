package io.paysession.webhook.delivery;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One circuit breaker per partner endpoint, on this node, in memory. Closed: sends go as usual. After
 * {@code failure-threshold} failed attempts in a row it opens: the dispatcher claims nothing of that partner
 * (its notifications stay pending, in order, and keep their retry window) until the open interval is over;
 * then one probe attempt goes (half-open): success closes the circuit, failure opens it again for longer.
 * Keyed by project; a new webhook URL gets a new, closed circuit. An attempt that was not sent (a refused
 * destination, for one) counts neither way.
 */
final class PartnerCircuits {

    private static final Logger log = LoggerFactory.getLogger(PartnerCircuits.class);

    /** A failure as the breaker records it; the attempt log has the details. */
    private static final class EndpointFailure extends RuntimeException {
        EndpointFailure(String outcome) {
            super(outcome, null, false, false);
        }
    }

    private record Circuit(String url, CircuitBreaker breaker) {
    }

    private final CircuitBreakerConfig config;
    private final WebhookMetrics metrics;
    private final Map<String, Circuit> circuits = new ConcurrentHashMap<>();

    PartnerCircuits(WebhookProperties.CircuitBreaker settings, WebhookMetrics metrics) {
        int threshold = settings.failureThreshold();
        this.config = CircuitBreakerConfig.custom()
                // the last `threshold` attempts all failed = `threshold` failures in a row
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(threshold)
                .minimumNumberOfCalls(threshold)
                .failureRateThreshold(100)
                // attempts end at the attempt time-out, which the failure count already covers
                .slowCallRateThreshold(100)
                .slowCallDurationThreshold(Duration.ofDays(1))
                .permittedNumberOfCallsInHalfOpenState(1)
                .waitIntervalFunctionInOpenState(IntervalFunction.ofExponentialBackoff(settings.openInterval(),
                        settings.openMultiplier(), settings.maxOpenInterval()))
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .build();
        this.metrics = metrics;
    }

    /** The circuit's state for the partner on this node; empty before its first attempt here. */
    Optional<CircuitBreaker.State> state(String project) {
        return Optional.ofNullable(circuits.get(project)).map(circuit -> circuit.breaker().getState());
    }

    /** An operator redelivered notifications of these partners: open circuits let a probe through now. */
    void probeNow(Collection<String> projects) {
        for (String project : projects) {
            Circuit circuit = circuits.get(project);
            if (circuit != null && circuit.breaker().getState() == CircuitBreaker.State.OPEN) {
                circuit.breaker().transitionToHalfOpenState();
            }
        }
    }

    /**
     * One claim's view of the circuits: the partners to leave out of the claim, and a probe permission for
     * each circuit whose open interval is over. {@link Round#close()} gives back the probes not used.
     */
    Round round() {
        Map<String, Circuit> probes = new HashMap<>();
        Set<String> blocked = new HashSet<>();
        circuits.forEach((project, circuit) -> {
            if (circuit.breaker().getState() == CircuitBreaker.State.CLOSED) {
                return;
            }
            if (circuit.breaker().tryAcquirePermission()) {
                probes.put(project, circuit);
            } else {
                blocked.add(project);
            }
        });
        return new Round(probes, blocked);
    }

    final class Round implements AutoCloseable {

        private final Map<String, Circuit> probes;
        private final Set<String> blocked;

        private Round(Map<String, Circuit> probes, Set<String> blocked) {
            this.probes = probes;
            this.blocked = Set.copyOf(blocked);
        }

        /** Partners whose circuit lets nothing through now. */
        Set<String> blocked() {
            return blocked;
        }

        /** Permission to send one notification to {@code url} of the partner; empty while its circuit refuses. */
        Optional<Permit> permit(String project, String url) {
            Circuit circuit = circuitOf(project, url);
            Circuit probe = probes.remove(project);
            if (probe == circuit) {
                return Optional.of(new Permit(project, circuit));
            }
            if (probe != null) {
                probe.breaker().releasePermission();
            }
            return circuit.breaker().tryAcquirePermission()
                    ? Optional.of(new Permit(project, circuit)) : Optional.empty();
        }

        @Override
        public void close() {
            probes.values().forEach(circuit -> circuit.breaker().releasePermission());
            probes.clear();
        }
    }

    /** One send's place in its partner's circuit; {@link #record} tells the circuit how it went. */
    static final class Permit {

        private final String project;
        private final Circuit circuit;

        private Permit(String project, Circuit circuit) {
            this.project = project;
            this.circuit = circuit;
        }

        void record(AttemptResult result) {
            CircuitBreaker breaker = circuit.breaker();
            if (result.notSent()) {
                breaker.releasePermission();
            } else if (result.endpointFailed()) {
                breaker.onError(result.latencyMillis(), TimeUnit.MILLISECONDS, new EndpointFailure(result.outcome()));
            } else {
                breaker.onSuccess(result.latencyMillis(), TimeUnit.MILLISECONDS);
            }
        }

        /** The send did not happen after all: the permission goes back unused. */
        void giveBack() {
            circuit.breaker().releasePermission();
        }

        String project() {
            return project;
        }
    }

    private Circuit circuitOf(String project, String url) {
        return circuits.compute(project, (key, existing) -> {
            if (existing != null && existing.url().equals(url)) {
                return existing;
            }
            CircuitBreaker breaker = CircuitBreaker.of(project, config);
            breaker.getEventPublisher().onStateTransition(event -> log.warn(
                    "Webhook circuit of partner {}: {}", project, describe(event.getStateTransition())));
            if (existing == null) {
                metrics.circuit(project, () -> state(project).orElse(CircuitBreaker.State.CLOSED));
            }
            return new Circuit(url, breaker);
        });
    }

    private static String describe(CircuitBreaker.StateTransition transition) {
        return switch (transition.getToState()) {
            case OPEN -> "open, nothing is sent to its endpoint until a probe (" + transition + ")";
            case HALF_OPEN -> "half-open, one probe goes to its endpoint (" + transition + ")";
            case CLOSED -> "closed, its webhooks go out again (" + transition + ")";
            default -> transition.toString();
        };
    }
}
