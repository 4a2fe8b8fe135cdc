package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.node.NodeRoles;
import io.paysession.api.session.ChargebackOpenedEvent;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.SessionId;
import io.paysession.command.ids.IdGenerator;
import io.paysession.command.process.ProcessCommandSender;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The sandbox acquirer's chargebacks, told to the engine as a real acquirer's notices would be (by the commands an
 * adapter sends: {@link OpenChargebackCommand}, then {@link RecordRefundOutcomeCommand} when the money is
 * withheld). A payment with the chargeback test card ({@code 4000000000000259}) is disputed
 * {@code payments.sandbox.chargeback-after} after its authorization, once it has succeeded; a chargeback asked for
 * with {@code session/chargeback} is opened at once; either is withheld after the rails' latency. The notices wait in
 * {@code sandbox_chargeback}, so a restart loses none; each names its chargeback's id, so one told twice is the same
 * chargeback, recognised in the session's stream.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxChargebacks implements SmartLifecycle {

    static final String REASON = "Sandbox: the cardholder disputed the payment with their bank";
    private static final Logger log = LoggerFactory.getLogger(SandboxChargebacks.class);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final int MAX_ATTEMPTS = 120;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final IdGenerator ids;
    private final ProcessCommandSender commands;
    private final EventStore events;
    private final SandboxScheduler scheduler;
    private final Clock clock;
    private final Duration after;
    private final boolean runsProcesses;
    private ScheduledExecutorService desk;

    public SandboxChargebacks(JdbcTemplate jdbc, PlatformTransactionManager transactions, IdGenerator ids,
                              ProcessCommandSender commands, EventStore events, SandboxScheduler scheduler, Clock clock,
                              @Value("${payments.sandbox.chargeback-after:30s}") Duration after,
                              @Value("${" + NodeRoles.PROPERTY + ":" + NodeRoles.ALL + "}") String roles) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.ids = ids;
        this.commands = commands;
        this.events = events;
        this.scheduler = scheduler;
        this.clock = clock;
        this.after = after;
        this.runsProcesses = NodeRoles.parse(roles).contains(NodeRoles.PROCESSES);
    }

    /** The chargeback test card's payment was authorized: its dispute comes {@code chargeback-after} later. */
    void raiseLater(SessionId session) {
        insert("raise", session, ids.nextRefundId(), after);
    }

    /** A chargeback opened now (the partner's {@code session/chargeback}): the money is withheld after the latency. */
    public RefundId withholdLater(SessionId session) {
        RefundId refund = ids.nextRefundId();
        insert("withhold", session, refund, latency());
        return refund;
    }

    /** A chargeback that could not be opened after all: nothing to withhold. */
    public void forget(RefundId refund) {
        jdbc.update("delete from sandbox_chargeback where refund_id = ?", refund.value());
    }

    private void insert(String kind, SessionId session, RefundId refund, Duration in) {
        jdbc.update("insert into sandbox_chargeback (kind, session_id, refund_id, due_at) values (?, ?, ?, ?)", kind,
                session.value(), refund.value(), Timestamp.from(clock.instant().plus(in)));
    }

    private Duration latency() {
        return scheduler.properties().cardLatencyMax();
    }

    /** One round: every notice that is due, one transaction each. */
    void round() {
        try {
            while (Boolean.TRUE.equals(transaction.execute(status -> handleOne()))) {
                // next
            }
        } catch (RuntimeException e) {
            log.warn("The sandbox chargeback desk failed ({}); it tries again", e.getClass().getName());
        }
    }

    private boolean handleOne() {
        List<Notice> due = jdbc.query("""
                        select id, kind, session_id, refund_id, attempts from sandbox_chargeback where due_at <= ?
                        order by due_at limit 1 for update skip locked""",
                (row, index) -> new Notice(row.getLong("id"), row.getString("kind"),
                        SessionId.of(row.getString("session_id")), RefundId.of(row.getString("refund_id")),
                        row.getInt("attempts")),
                Timestamp.from(clock.instant()));
        if (due.isEmpty()) {
            return false;
        }
        Notice notice = due.get(0);
        boolean raise = notice.kind().equals("raise");
        Object command = raise
                ? new OpenChargebackCommand(notice.session(), notice.refund(), null, null, REASON, false)
                : new RecordRefundOutcomeCommand(notice.session(), notice.refund(), true, null);
        boolean told;
        try {
            told = commands.sendAndReport(command) || inStream(notice, raise
                    ? event -> event instanceof ChargebackOpenedEvent opened && opened.refundId().equals(notice.refund())
                    : event -> event instanceof RefundAcceptedEvent accepted
                    && accepted.refundId().equals(notice.refund()));
        } catch (PaymentsException refusal) {
            // nothing left to charge back (refunded in full): the bank has nothing to take
            told = refusal.code() == ErrorCode.REFUND_AMOUNT_TOO_LARGE;
        }
        if (told) {
            jdbc.update("delete from sandbox_chargeback where id = ?", notice.id());
            if (raise) {
                insert("withhold", notice.session(), notice.refund(), latency());
            }
        } else if (notice.attempts() + 1 >= MAX_ATTEMPTS) {
            log.warn("A sandbox chargeback notice for {} was refused {} times; it is dropped", notice.session().value(),
                    MAX_ATTEMPTS);
            jdbc.update("delete from sandbox_chargeback where id = ?", notice.id());
        } else {
            // the payment has not succeeded yet: the bank disputes it once it has
            jdbc.update("update sandbox_chargeback set due_at = ?, attempts = attempts + 1 where id = ?",
                    Timestamp.from(clock.instant().plus(RETRY)), notice.id());
        }
        return true;
    }

    /** Whether the session's stream already holds what the notice would record (it was told before). */
    private boolean inStream(Notice notice, Predicate<Object> recorded) {
        return events.readEvents(notice.session().value()).asStream().map(message -> message.getPayload())
                .anyMatch(recorded);
    }

    private record Notice(long id, String kind, SessionId session, RefundId refund, int attempts) {
    }

    @Override
    public void start() {
        desk = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sandbox-chargebacks");
            thread.setDaemon(true);
            return thread;
        });
        desk.scheduleWithFixedDelay(this::round, 500, 500, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (desk != null) {
            desk.shutdownNow();
            desk = null;
        }
    }

    @Override
    public boolean isRunning() {
        return desk != null;
    }

    /** The desk tells the engine as the acquirer's notices would: on the nodes that run the rails' processes. */
    @Override
    public boolean isAutoStartup() {
        return runsProcesses;
    }
}
