package io.paysession.gateway.cluster;

import io.paysession.gateway.infra.PeriodicTask;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.lang.management.ManagementFactory;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Spreads the segments of each streaming processor over the live nodes that run it. Axon's tracking processor claims
 * every segment it has a thread for, so the first node to start would otherwise hold them all and the others would
 * do no background work. Every {@code payments.cluster.balance-interval} each node says it runs the processor
 * ({@code processor_member}), counts the nodes that said so within {@code payments.cluster.node-timeout}, and, when
 * it processes more than its share (the segments divided by the live nodes, rounded up), gives the surplus back
 * through Axon's own {@link StreamingEventProcessor#releaseSegment(int, long, TimeUnit)}: the segment is not claimed
 * again here for a while, and a node below its share claims it at its next token claim. A node that joins or
 * leaves changes the share at the next round; a dead node's segments are claimed by the others once their claims
 * time out ({@code axon.eventhandling.tokenstore.claim-timeout}), whatever this does.
 * <p>
 * Nothing here decides who processes what: Axon's token claims still do, so two nodes never process one segment.
 */
@Component
public class SegmentBalancer extends PeriodicTask {

    private static final Logger log = LoggerFactory.getLogger(SegmentBalancer.class);

    private final EventProcessingConfiguration processing;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Duration nodeTimeout;
    private final Duration releaseFor;
    /** The same name Axon's JDBC token store writes in {@code token_entry.owner} for this JVM. */
    private final String node = ManagementFactory.getRuntimeMXBean().getName();

    public SegmentBalancer(EventProcessingConfiguration processing, JdbcTemplate jdbc, Clock clock,
                           @Value("${payments.cluster.balance-interval:1s}") Duration interval,
                           @Value("${payments.cluster.node-timeout:5s}") Duration nodeTimeout,
                           @Value("${payments.cluster.release-for:5s}") Duration releaseFor) {
        super("segment-balancer", interval);
        this.processing = processing;
        this.jdbc = jdbc;
        this.clock = clock;
        this.nodeTimeout = nodeTimeout;
        this.releaseFor = releaseFor;
    }

    @Override
    protected void runOnce() {
        Instant now = clock.instant();
        for (StreamingEventProcessor processor : running()) {
            jdbc.update("""
                    insert into processor_member (processor_name, node_id, seen_at) values (?, ?, ?)
                    on conflict (processor_name, node_id) do update set seen_at = excluded.seen_at""",
                    processor.getName(), node, Timestamp.from(now));
            balance(processor, now);
        }
        // rows of nodes gone for a day: nothing counts them any more
        jdbc.update("delete from processor_member where seen_at < ?", Timestamp.from(now.minus(Duration.ofDays(1))));
    }

    /** Gives back what this node processes beyond its share of {@code processor}'s segments; how many. */
    int balance(StreamingEventProcessor processor, Instant now) {
        Integer live = jdbc.queryForObject(
                "select count(*) from processor_member where processor_name = ? and seen_at > ?", Integer.class,
                processor.getName(), Timestamp.from(now.minus(nodeTimeout)));
        Integer segments = jdbc.queryForObject("select count(*) from token_entry where processor_name = ?",
                Integer.class, processor.getName());
        int share = share(segments == null ? 0 : segments, live == null ? 1 : live);
        List<Integer> mine = processor.processingStatus().keySet().stream().sorted().toList();
        int surplus = mine.size() - share;
        for (int i = 0; i < surplus; i++) {
            int segment = mine.get(mine.size() - 1 - i);
            processor.releaseSegment(segment, releaseFor.toMillis(), TimeUnit.MILLISECONDS);
            log.info("Segment {} of {} released for the other nodes: this node processes {} of {} segments, {} nodes"
                    + " run it", segment, processor.getName(), mine.size(), segments, live);
        }
        return Math.max(0, surplus);
    }

    /** The segments one of {@code nodes} nodes processes at most: all of them divided evenly, rounded up. */
    static int share(int segments, int nodes) {
        int divisor = Math.max(1, nodes);
        return (segments + divisor - 1) / divisor;
    }

    private List<StreamingEventProcessor> running() {
        return processing.eventProcessors().values().stream()
                .filter(StreamingEventProcessor.class::isInstance).map(StreamingEventProcessor.class::cast)
                .filter(StreamingEventProcessor::isRunning)
                .toList();
    }

    /** Stops before the processors do, and says so: the others' shares grow at their next round. */
    @Override
    public synchronized void stop() {
        super.stop();
        try {
            jdbc.update("delete from processor_member where node_id = ?", node);
        } catch (RuntimeException e) {
            log.warn("This node could not say it stops ({}); the others see it after the node time-out",
                    e.getClass().getName());
        }
    }
}
