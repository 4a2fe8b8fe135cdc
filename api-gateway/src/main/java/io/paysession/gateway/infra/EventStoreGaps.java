package io.paysession.gateway.infra;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * The settings of gaps in the JDBC event store ({@code JdbcEventStoreConfiguration} builds the store with them; the
 * settlement projection's position gives gaps up after the same time-out). A gap is
 * a global index taken by a transaction that has not committed: still running, or never to commit (rolled
 * back, or lost with a crashed process). Axon gives a gap up once the event after it is older than
 * {@code gap-timeout}, but by default looks only when a token holds more than 250 gaps, so a gap a crash left
 * stayed in every token, and the reconciliation report's position below it, for thousands of events.
 * Here a fetch looks as soon as a token holds more than one gap ({@code gap-cleaning-threshold} 1, Axon's
 * lowest); the report's position gives a single gap up on its own ({@code SettlementStore#giveUpGaps}).
 */
@Configuration
@EnableConfigurationProperties(EventStoreGaps.GapProperties.class)
public class EventStoreGaps {

    /**
     * {@code payments.events.*}.
     *
     * @param gapTimeout           how long a missing global index is waited for; must be longer than any
     *                             transaction that appends events takes from taking its index to committing
     *                             (commands take well under a second, docs/security/processing.md)
     * @param gapCleaningThreshold how many gaps a token holds before a fetch looks for timed-out ones
     */
    @ConfigurationProperties("payments.events")
    public record GapProperties(@DefaultValue("10s") Duration gapTimeout,
                                @DefaultValue("1") int gapCleaningThreshold) {

        public GapProperties {
            if (gapTimeout.compareTo(Duration.ofSeconds(1)) < 0 || gapTimeout.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException("payments.events.gap-timeout must be from 1s to 1h");
            }
            if (gapCleaningThreshold < 1) {
                throw new IllegalArgumentException("payments.events.gap-cleaning-threshold must be at least 1");
            }
        }
    }
}
