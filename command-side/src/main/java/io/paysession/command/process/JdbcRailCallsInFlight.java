package io.paysession.command.process;

import io.paysession.api.session.SessionId;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link RailCallsInFlight} in {@code rail_call_in_flight}, with the nodes' heartbeats in {@code rail_node}. A node is
 * named once per start (process id, host and a random suffix), so a restarted node is a new one and its former self's
 * calls are taken over like any dead node's: after {@code payments.rails.node-timeout} without a heartbeat, or at once
 * when it stopped cleanly. A call whose owner lives is due again only after {@code payments.rails.answer-timeout} plus
 * {@code payments.rails.in-flight-lease} (its answer could not be recorded), or when it is to be asked again.
 */
@Component
public class JdbcRailCallsInFlight implements RailCallsInFlight {

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Duration dueAfter;
    private final Duration nodeTimeout;
    private final String node;

    public JdbcRailCallsInFlight(JdbcTemplate jdbc, Clock clock,
                                 @Value("${payments.rails.answer-timeout:60s}") Duration answerTimeout,
                                 @Value("${payments.rails.in-flight-lease:30s}") Duration lease,
                                 @Value("${payments.rails.node-timeout:10s}") Duration nodeTimeout) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.dueAfter = answerTimeout.plus(lease);
        this.nodeTimeout = nodeTimeout;
        this.node = ProcessHandle.current().pid() + "@" + host() + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** This node's name in {@code rail_node} and in the rows it owns. */
    public String node() {
        return node;
    }

    @Override
    public void started(String eventId, SessionId session) {
        jdbc.update("""
                        insert into rail_call_in_flight (event_id, session_id, owner, due_at) values (?, ?, ?, ?)
                        on conflict (event_id) do update set owner = excluded.owner, due_at = excluded.due_at""",
                eventId, session.value(), node, Timestamp.from(now().plus(dueAfter)));
    }

    @Override
    public void answered(String eventId) {
        jdbc.update("delete from rail_call_in_flight where event_id = ?", eventId);
    }

    @Override
    public void retryAfter(String eventId, Duration delay) {
        jdbc.update("update rail_call_in_flight set due_at = ?, attempts = attempts + 1 where event_id = ?",
                Timestamp.from(now().plus(delay)), eventId);
    }

    @Override
    public int attempts(String eventId) {
        List<Integer> attempts = jdbc.queryForList("select attempts from rail_call_in_flight where event_id = ?",
                Integer.class, eventId);
        return attempts.isEmpty() ? 0 : attempts.get(0);
    }

    @Override
    public Optional<Due> claimDue() {
        Instant now = now();
        return jdbc.query("""
                        select f.event_id, f.session_id from rail_call_in_flight f
                        where f.due_at <= ?
                           or not exists (select 1 from rail_node n where n.node_id = f.owner and n.seen_at > ?)
                        order by f.due_at limit 1
                        for update of f skip locked""",
                (row, index) -> new Due(row.getString(1), SessionId.of(row.getString(2))),
                Timestamp.from(now), Timestamp.from(now.minus(nodeTimeout))).stream().findFirst();
    }

    @Override
    public void beat() {
        Instant now = now();
        jdbc.update("""
                insert into rail_node (node_id, seen_at) values (?, ?)
                on conflict (node_id) do update set seen_at = excluded.seen_at""", node, Timestamp.from(now));
        // the rows of nodes gone for a day: nothing refers to them any more that is not taken over already
        jdbc.update("delete from rail_node where seen_at < ?", Timestamp.from(now.minus(Duration.ofDays(1))));
    }

    @Override
    public void leave() {
        jdbc.update("delete from rail_node where node_id = ?", node);
    }

    private Instant now() {
        return clock.instant();
    }

    private static String host() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            return name.length() > 40 ? name.substring(0, 40) : name;
        } catch (UnknownHostException e) {
            return "node";
        }
    }
}
