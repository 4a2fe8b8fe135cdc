package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.command.session.SessionLifecycle.Allowed;
import io.paysession.command.session.SessionLifecycle.Refused;
import io.paysession.command.session.SessionLifecycle.Rule;
import io.paysession.command.session.SessionLifecycle.Trigger;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * An operation of a session, a {@link Payment} or a {@link Payout}: an entity of the Session aggregate with its own
 * state and stage, moved by the rows of {@link SessionLifecycle}'s table that concern its kind ({@link #rows()}).
 * The session hands it the commands that name no operation (confirm, cancel, capture, refund) and the deadlines
 * that name it; what a payment and a payout do differently is said here by each of them, not by the session.
 * <p>
 * Stages: every transition into a state starts a new stage, except a query of the rail, and deadlines carry the
 * stage they were set in ({@link StageDeadline}); the start of the operation is stage 1, as it was when the session
 * counted the stages itself, so that deadlines stored before and after agree.
 */
abstract class Operation {

    protected final SessionId sessionId;
    private OperationState state;
    private int stage;

    /** An operation just started by {@code start}, which the table allows only to a session without one. */
    Operation(SessionId sessionId, Trigger start) {
        this.sessionId = sessionId;
        if (!(SessionLifecycle.next(SessionStatus.CREATED, SessionLifecycle.NONE, start) instanceof Allowed allowed)) {
            throw new IllegalStateException("the transition table no longer starts an operation by " + start);
        }
        state = allowed.to();
        stage = 1;
    }

    /** The id its deadlines carry. */
    abstract String operationId();

    /** The rows of {@link SessionLifecycle}'s table that concern this kind of operation: the only ones it takes. */
    abstract List<Rule> rows();

    /** The partner confirms the operation; it checks the table itself. */
    abstract void confirm(Clock clock);

    /** The operation failed, as the rail said; the session is cancelled with it (the table has allowed it). */
    abstract void fail(ErrorDetails reason, Clock clock);

    /** The session is cancelled while this operation is under way (the table has allowed it). */
    abstract void cancel(ErrorDetails reason, Clock clock);

    /** The query deadline of a lost answer fell due in the current stage (the table has allowed it). */
    abstract void queryDue(Clock clock);

    /** The payer did not act in time (the table has allowed it). */
    abstract void payerActionTimedOut(Clock clock);

    /** The rail's pre-check refused the operation. */
    void refuse(ErrorDetails reason, Clock clock) {
        advance(Trigger.PRECHECK_REFUSED);
        fail(reason, clock);
    }

    /** {@code session/capture}, project checked ({@code amount} {@code null}: the whole hold); checks the table. */
    abstract void capture(Money amount, Clock clock);

    /** {@code session/refund}, project checked; checks the table itself. */
    abstract void refund(RefundSessionCommand command, Clock clock);

    /** A chargeback from the payer's bank; checks the table itself. */
    abstract void chargeback(OpenChargebackCommand command, Clock clock);

    /** The operation's error once its outcome is overdue: the rail may still have done it. */
    static ErrorDetails overdueError(String kind, int queries) {
        return ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "The provider's outcome of the " + kind
                + " is still unknown after " + queries + " queries; it may yet succeed: do not repeat it, ask the"
                + " operator. The provider is still being asked");
    }

    /** The session's error once an operation's outcome is overdue: not final. */
    static ErrorDetails overdueSessionError(String operationId) {
        return ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "The outcome of " + operationId
                + " is unknown: the session's status is not final");
    }

    OperationState state() {
        return state;
    }

    /** The session's status follows its operation (as {@code SessionViewFold} shows it). */
    SessionStatus sessionStatus() {
        return switch (state) {
            case SUCCEEDED -> SessionStatus.ACCEPTED;
            case FAILED -> SessionStatus.CANCELLED;
            case ERROR -> SessionStatus.ERROR;
            default -> SessionStatus.IN_PROGRESS;
        };
    }

    boolean allows(Trigger trigger) {
        return SessionLifecycle.next(rows(), sessionStatus(), state, trigger).allowed();
    }

    /** Refuses, with the table's description, a command whose trigger the table does not allow now. */
    void advance(Trigger trigger) {
        if (SessionLifecycle.next(rows(), sessionStatus(), state, trigger) instanceof Refused refused) {
            throw PaymentsException.wrongState(refused.description());
        }
    }

    /** Whether {@code deadline} was set for this operation in its current stage. */
    boolean isCurrent(StageDeadline deadline) {
        return operationId().equals(deadline.operationId()) && stage == deadline.stage();
    }

    void schedule(Deadlines deadlines, String name, Duration after) {
        deadlines.schedule(sessionId, name, after, new StageDeadline(operationId(), stage));
    }

    /**
     * Applies what the transition table answers for the first of {@code triggers} (the triggers the event may
     * record) that it allows now: the state it names, in a new stage, unless the trigger keeps the stage. A stored
     * event the table allows by none of them means the stream and the table disagree: the session is not rebuilt
     * into a state the table never allowed.
     */
    void record(Trigger... triggers) {
        SessionStatus status = sessionStatus();
        for (Trigger trigger : triggers) {
            if (SessionLifecycle.next(rows(), status, state, trigger) instanceof Allowed allowed) {
                if (allowed.to() != SessionLifecycle.NONE && !trigger.keepsStage()) {
                    state = allowed.to();
                    stage++;
                }
                return;
            }
        }
        throw new IllegalStateException("The transition table allows none of " + Arrays.toString(triggers)
                + " while the session " + sessionId + " is " + status + " and its operation " + state);
    }

    /** For the entities' {@code equals}: what every operation holds. */
    boolean sameLifecycle(Operation other) {
        return sessionId.equals(other.sessionId) && state == other.state && stage == other.stage;
    }

    String lifecycle() {
        return state + ", stage " + stage;
    }
}
