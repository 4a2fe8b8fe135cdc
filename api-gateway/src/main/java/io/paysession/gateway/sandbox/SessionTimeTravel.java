package io.paysession.gateway.sandbox;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.command.rails.sandbox.SandboxSessionClock;
import io.paysession.command.session.StageDeadline;
import io.paysession.webhook.delivery.DeliveryStore;
import org.axonframework.deadline.dbscheduler.DbSchedulerBinaryDeadlineDetails;
import org.axonframework.messaging.ScopeDescriptor;
import org.axonframework.modelling.command.AggregateScopeDescriptor;
import org.axonframework.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The sandbox's time travel for one session (docs/sandbox.md "Time travel"): {@link #advance} adds to the session's
 * offset ({@link SandboxSessionClock}) and brings every pending timer of that session earlier by the same duration,
 * an overdue one to now, so that it fires within a second or two: its Axon deadlines (db-scheduler's
 * {@code scheduled_tasks} rows of the task {@value #DEADLINE_TASK} whose scope is the session's aggregate), the
 * retries of its webhooks ({@code webhook_notification.next_attempt_at}, and the start of their retry window, which
 * ends them), and the sandbox acquirer's notices about it. Nothing of another session is read or changed.
 */
@Component
@ConditionalOnSandboxRails
public class SessionTimeTravel {

    /** The longest advance of one call: more than the longest time limit (a 5-day hold) and the webhook retries'. */
    public static final Duration LONGEST_ADVANCE = Duration.ofDays(30);
    /** The task name under which Axon's db-scheduler deadline manager stores deadlines. */
    static final String DEADLINE_TASK = "AxonDeadline";

    private static final Logger log = LoggerFactory.getLogger(SessionTimeTravel.class);

    private final SandboxSessionClock clocks;
    private final SchedulerClient scheduler;
    private final Serializer serializer;
    private final DeliveryStore deliveries;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public SessionTimeTravel(SandboxSessionClock clocks, SchedulerClient scheduler, Serializer serializer,
                             DeliveryStore deliveries, PlatformTransactionManager transactions, Clock clock) {
        this.clocks = clocks;
        this.scheduler = scheduler;
        this.serializer = serializer;
        this.deliveries = deliveries;
        this.transaction = new TransactionTemplate(transactions);
        this.clock = clock;
    }

    /** What an advance did: the session's offset after it, the advances so far, the timers brought earlier. */
    public record Advanced(Duration offset, int advances, Instant sessionTime, int deadlines, int webhooks) {
    }

    /** A deadline of the session, pending in db-scheduler. */
    private record Pending(ScheduledExecution<DbSchedulerBinaryDeadlineDetails> execution, String operationId) {
    }

    /**
     * Moves the session's time forward by {@code duration} (positive, at most {@link #LONGEST_ADVANCE}; the caller
     * checked that the session exists and is the partner's).
     */
    public Advanced advance(SessionId session, Duration duration) {
        Instant now = clock.instant();
        List<Pending> deadlines = pendingDeadlines(session);
        // first the offset and the catch-ups, so that a deadline brought to now finds them when it fires
        Advanced advanced = transaction.execute(status -> {
            SandboxSessionClock.Offset offset = clocks.advance(session, duration);
            for (Pending pending : deadlines) {
                Instant due = pending.execution().getExecutionTime();
                if (pending.operationId() != null && !due.minus(duration).isAfter(now)) {
                    // it falls due at its own time inside the advance: what follows it has the rest to run through
                    clocks.catchUp(session, pending.operationId(), Duration.between(due, now.plus(duration)));
                }
            }
            int webhooks = deliveries.bringRetriesEarlier(session.value(), duration, now);
            clocks.bringSandboxTimersEarlier(session, duration, now);
            return new Advanced(offset.offset(), offset.advances(), now.plus(offset.offset()), 0, webhooks);
        });
        int moved = 0;
        for (Pending pending : deadlines) {
            Instant due = pending.execution().getExecutionTime().minus(duration);
            try {
                if (scheduler.reschedule(pending.execution().getTaskInstance(), due.isBefore(now) ? now : due)) {
                    moved++;
                }
            } catch (RuntimeException e) {
                // it was picked meanwhile: it is firing now, which is at least as early as asked
                log.debug("A deadline of {} could not be moved ({}): it is being run", session.value(),
                        e.getClass().getName());
            }
        }
        return new Advanced(advanced.offset(), advanced.advances(), advanced.sessionTime(), moved, advanced.webhooks());
    }

    /** The session's deadlines not yet picked, read through db-scheduler (its rows are serialized). */
    private List<Pending> pendingDeadlines(SessionId session) {
        List<Pending> found = new ArrayList<>();
        scheduler.fetchScheduledExecutionsForTask(DEADLINE_TASK, DbSchedulerBinaryDeadlineDetails.class, execution -> {
            if (execution.isPicked()) {
                return;
            }
            DbSchedulerBinaryDeadlineDetails details = execution.getData();
            ScopeDescriptor scope = details.getDeserializedScopeDescriptor(serializer);
            if (scope instanceof AggregateScopeDescriptor aggregate
                    && session.value().equals(String.valueOf(aggregate.getIdentifier()))) {
                Object payload = details.asDeadLineMessage(serializer).getPayload();
                found.add(new Pending(execution, payload instanceof StageDeadline stage ? stage.operationId() : null));
            }
        });
        return found;
    }
}
