package io.paysession.command.session;

import io.paysession.api.erasure.PersonalData;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.session.ErasePersonalDataCommand;
import io.paysession.api.session.PersonalDataErasedEvent;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.EndRecurrentGrantCommand;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.InitMultiSessionCommand;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.InitPayoutCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordPayoutOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.RefusePayoutCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionLimits;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.StartPayoutCommand;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.session.SessionLifecycle.Refused;
import io.paysession.command.session.SessionLifecycle.Trigger;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateMember;
import org.axonframework.modelling.command.ForwardMatchingInstances;
import org.axonframework.spring.stereotype.Aggregate;

import java.time.Clock;
import java.util.HashSet;
import java.util.Set;
import java.util.ArrayList;
import java.util.List;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A payment session: the consistency boundary of its operations. Each operation is an aggregate member with its
 * own state: a {@link Payment} (holding its {@link Refund}s) or a {@link Payout}, reached by the id its commands and
 * events carry. The session itself keeps its project, its drafts and whether it was cancelled before any operation
 * started; it hands the commands that name no operation (confirm, cancel, capture, refund) and its deadlines to the
 * operation under way ({@link Operation}). A session holds one operation (the table starts one only in a session
 * without one), except a multi-session ({@code session/multi/init}), whose several operations are confirmed and
 * cancelled together and whose deadlines are found by the operation they name. It does no I/O and takes time from the injected clock (in the sandbox, the delays of its deadlines come from {@link SessionClocks}, which reads the session's time travel). Which command is allowed when,
 * and which state follows, is decided by {@link SessionLifecycle}: the event sourcing handlers apply the state its
 * tables answer for the trigger their event records.
 * <p>
 * Time limits are persistent deadlines carrying the operation and the stage they guard ({@link StageDeadline}).
 * Their handlers stay here, on the root, and find the operation by the deadline's id: Axon delivers a deadline to
 * the members only through their event forwarding, and a deadline names no payment or payout property.
 * Commands that name an operation are handled here too and handed to it, so that an unknown id is refused with
 * {@code session_wrong_state} as before (a member's own command handler would fail with Axon's "no entity").
 */
@Aggregate(cache = "sessionCache")
public class Session {

    static final String CANCELLED_BY_PARTNER = "The session was cancelled by the partner";
    static final String CONFIRM_TIMEOUT = "confirm-timeout";
    static final String PAYER_ACTION_TIMEOUT = "payer-action-timeout";
    static final String CAPTURE_TIMEOUT = "capture-timeout";
    static final String OUTCOME_QUERY = "outcome-query";
    static final String REFUND_OUTCOME_QUERY = "refund-outcome-query";

    @AggregateIdentifier
    private SessionId sessionId;
    private String project;
    /** Cancelled before any operation started; once one has, the session's status follows it. */
    private boolean cancelled;
    private PaymentData draft;
    private PayoutData payoutDraft;
    /** The session's payments; each event reaches the payment whose {@code paymentId} it carries. */
    @AggregateMember(eventForwardingMode = ForwardMatchingInstances.class)
    private final Map<PaymentId, Payment> payments = new HashMap<>();
    /** The session's payouts; each event reaches the payout whose {@code payoutId} it carries. */
    @AggregateMember(eventForwardingMode = ForwardMatchingInstances.class)
    private final Map<PayoutId, Payout> payouts = new HashMap<>();
    /** The operation under way, one of the above: the one the commands that name no operation concern. */
    private Operation current;
    /**
     * A multi-session: several operations, none of them {@link #current}; confirmed and cancelled together, their
     * deadlines found by the operation they name (docs/decisions.md, "Multi-sessions").
     */
    private boolean multi;
    /** The erasures of the session's personal data recorded so far. */
    private final Set<String> erasures = new HashSet<>();

    protected Session() {
        // for Axon: rebuilt from events
    }

    @CommandHandler
    public Session(CreateSessionCommand command, Clock clock) {
        PaymentData draft = command.paymentDraft() == null ? PaymentData.EMPTY : command.paymentDraft();
        PayoutData payoutDraft = command.payoutDraft() == null ? PayoutData.EMPTY : command.payoutDraft();
        apply(new SessionCreatedEvent(command.sessionId(), command.project(), command.apiVersion(), draft,
                payoutDraft, WireFormat.now(clock)));
    }

    @CommandHandler
    public Session(InitPaymentCommand command, Clock clock) {
        command.payment().requireComplete();
        Instant now = WireFormat.now(clock);
        apply(new SessionCreatedEvent(command.sessionId(), command.project(), command.apiVersion(),
                PaymentData.EMPTY, PayoutData.EMPTY, now));
        apply(new PaymentStartedEvent(command.sessionId(), command.paymentId(), command.payment(), command.terms(),
                now));
    }

    /**
     * {@code session/multi/init}: several payments and payouts started together, each pre-checked on its own. The
     * payments are captured at once whatever the partner's capture mode: a multi-session is confirmed as a whole, and
     * has no capture of its own. A recipient verification is not an operation of a multi-session.
     */
    @CommandHandler
    public Session(InitMultiSessionCommand command, Clock clock) {
        int operations = command.payments().size() + command.payouts().size();
        if (operations == 0 || operations > SessionLimits.MAX_OPERATIONS_PER_SESSION) {
            throw PaymentsException.invalidRequest("a multi-session holds 1 to "
                    + SessionLimits.MAX_OPERATIONS_PER_SESSION + " payments and payouts");
        }
        command.payments().forEach(start -> start.payment().requireComplete());
        command.payouts().forEach(start -> {
            start.payout().requireComplete();
            if (start.payout().method() instanceof PayoutMethod.FasterPaymentVerification) {
                throw PaymentsException.invalidRequest("a recipient verification is not an operation of a multi-session");
            }
        });
        Instant now = WireFormat.now(clock);
        PartnerTerms atOnce = new PartnerTerms(CaptureMode.AUTO, command.terms().fees(),
                command.terms().bankAccountToken());
        apply(new SessionCreatedEvent(command.sessionId(), command.project(), command.apiVersion(),
                PaymentData.EMPTY, PayoutData.EMPTY, now, true));
        command.payments().forEach(start -> apply(new PaymentStartedEvent(command.sessionId(), start.paymentId(),
                start.payment(), atOnce, now)));
        command.payouts().forEach(start -> apply(new PayoutStartedEvent(command.sessionId(), start.payoutId(),
                start.payout(), now, command.fromBalance())));
    }

    @CommandHandler
    public void handle(StartPaymentCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.START_PAYMENT);
        PaymentData merged = draft.overriddenBy(command.payment());
        merged.requireComplete();
        apply(new PaymentStartedEvent(sessionId, command.paymentId(), merged, command.terms(), WireFormat.now(clock)));
    }

    @CommandHandler
    public Session(InitPayoutCommand command, Clock clock) {
        command.payout().requireComplete();
        Instant now = WireFormat.now(clock);
        apply(new SessionCreatedEvent(command.sessionId(), command.project(), command.apiVersion(),
                PaymentData.EMPTY, PayoutData.EMPTY, now));
        startPayout(command.sessionId(), command.payoutId(), command.payout(), now, command.fromBalance());
    }

    @CommandHandler
    public void handle(StartPayoutCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.START_PAYOUT);
        PayoutData merged = payoutDraft.overriddenBy(command.payout());
        merged.requireComplete();
        startPayout(sessionId, command.payoutId(), merged, WireFormat.now(clock), command.fromBalance());
    }

    /**
     * A recipient verification is free and confirmed automatically: no {@code ready_to_confirm}. Called from
     * a constructor too, where Axon applies events only after the constructor returns: so nothing here
     * reads the aggregate's fields, and the legality of the automatic confirmation is checked against the
     * state the start has just produced.
     */
    private static void startPayout(SessionId session, PayoutId id, PayoutData data, Instant now,
                                    boolean fromBalance) {
        apply(new PayoutStartedEvent(session, id, data, now, fromBalance));
        if (data.method() instanceof PayoutMethod.FasterPaymentVerification) {
            if (!SessionLifecycle.next(SessionStatus.IN_PROGRESS, OperationState.IN_PROGRESS,
                    Trigger.CONFIRM_AUTOMATICALLY).allowed()) {
                throw new IllegalStateException("the transition table no longer confirms verifications");
            }
            apply(new PayoutConfirmedEvent(session, id, data, now));
        }
    }

    @CommandHandler
    public void handle(MarkPayoutReadyToConfirmCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits, SessionClocks clocks) {
        payout(command.payoutId()).markReadyToConfirm(clock, new Deadlines(deadlines, clocks), limits);
        afterPrecheck(clock);
    }

    @CommandHandler
    public void handle(RefusePayoutCommand command, Clock clock) {
        payout(command.payoutId()).refuse(command.reason(), clock);
        afterPrecheck(clock);
    }

    @CommandHandler
    public void handle(RecordPayoutOutcomeCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits, SessionClocks clocks) {
        payout(command.payoutId()).recordOutcome(command.outcome(), clock, new Deadlines(deadlines, clocks), limits);
    }

    @CommandHandler
    public void handle(MarkPaymentReadyToConfirmCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits, SessionClocks clocks) {
        payment(command.paymentId()).markReadyToConfirm(clock, new Deadlines(deadlines, clocks), limits);
        afterPrecheck(clock);
    }

    @CommandHandler
    public void handle(RefusePaymentCommand command, Clock clock) {
        payment(command.paymentId()).refuse(command.reason(), clock);
        afterPrecheck(clock);
    }

    /**
     * A multi-session whose operations have all had their pre-check's answer, one or more of them refused: the others,
     * waiting for the confirmation, are cancelled with it (a multi-session is confirmed whole or not at all).
     */
    private void afterPrecheck(Clock clock) {
        if (!multi || operations().stream().anyMatch(operation -> operation.state() == OperationState.IN_PROGRESS)
                || operations().stream().noneMatch(operation -> operation.state() == OperationState.FAILED)
                || operations().stream().allMatch(operation -> operation.state().isFinal())) {
            return;
        }
        apply(new SessionCancelledEvent(sessionId, ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                "An operation of the session was refused at its pre-check"), WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(ConfirmSessionCommand command, Clock clock) {
        requireProject(command.project());
        if (multi) {
            requireAll(Trigger.CONFIRM);
            operations().forEach(operation -> operation.confirm(clock));
            return;
        }
        operation(Trigger.CONFIRM).confirm(clock);
    }

    @CommandHandler
    public void handle(CancelSessionCommand command, Clock clock) {
        requireProject(command.project());
        if (multi) {
            requireAll(Trigger.CANCEL);
            apply(new SessionCancelledEvent(sessionId, ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER,
                    CANCELLED_BY_PARTNER), WireFormat.now(clock)));
            return;
        }
        advance(Trigger.CANCEL);
        ErrorDetails reason = ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, CANCELLED_BY_PARTNER);
        if (current == null) {
            apply(new SessionCancelledEvent(sessionId, reason, WireFormat.now(clock)));
        } else {
            current.cancel(reason, clock);
        }
    }

    @CommandHandler
    public void handle(RecordPaymentAuthorizationCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits, SessionClocks clocks) {
        payment(command.paymentId()).recordAuthorization(command.outcome(), clock, new Deadlines(deadlines, clocks), limits);
    }

    /**
     * The session's personal data keys were erased (docs/erasure.md): recorded once per erasure, in any state, so that
     * everything derived from the session is derived again from its erased events.
     */
    @CommandHandler
    public void handle(ErasePersonalDataCommand command, Clock clock) {
        if (!erasures.contains(command.erasureId())) {
            apply(new PersonalDataErasedEvent(sessionId, command.erasureId(), WireFormat.now(clock)));
        }
    }

    @CommandHandler
    public void handle(EndRecurrentGrantCommand command) {
        payment(command.paymentId()).endRecurrentGrant(command.token(), command.finishedAt());
    }

    @CommandHandler
    public void handle(CaptureSessionCommand command, Clock clock) {
        requireProject(command.project());
        requireSingle("The payments of a multi-session are captured at once");
        operation(Trigger.CAPTURE).capture(command.amount(), clock);
    }

    @CommandHandler
    public void handle(RecordPaymentCaptureCommand command, Clock clock) {
        payment(command.paymentId()).recordCapture(command.transactionInfo(), clock);
    }

    @CommandHandler
    public void handle(RecordCaptureOutcomeUnknownCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits, SessionClocks clocks) {
        payment(command.paymentId()).recordCaptureOutcomeUnknown(command.reason(), clock, new Deadlines(deadlines, clocks), limits);
    }

    @CommandHandler
    public void handle(RefundSessionCommand command, Clock clock) {
        requireProject(command.project());
        requireSingle("Refunds of a multi-session's payments are not offered: session/refund names no payment");
        operation(Trigger.REFUND).refund(command, clock);
    }

    /** A chargeback names no operation: it is the payment's; {@code project} is checked when the partner asks. */
    @CommandHandler
    public void handle(OpenChargebackCommand command, Clock clock) {
        if (command.project() != null) {
            requireProject(command.project());
        }
        requireSingle("A chargeback names no payment of a multi-session");
        operation(Trigger.REFUND).chargeback(command, clock);
    }

    @CommandHandler
    public void handle(RecordRefundOutcomeCommand command, Clock clock) {
        refund(command.refundId()).orElseThrow(() -> Refund.notInProgress(command.refundId()))
                .recordOutcome(command, clock);
    }

    @CommandHandler
    public void handle(RecordRefundOutcomeUnknownCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits, SessionClocks clocks) {
        refund(command.refundId()).orElseThrow(() -> Refund.notInProgress(command.refundId()))
                .recordOutcomeUnknown(command.reason(), clock, new Deadlines(deadlines, clocks), limits);
    }

    /** The deadline names the refund it was set for; a refund the session does not hold has nothing to query. */
    @DeadlineHandler(deadlineName = REFUND_OUTCOME_QUERY)
    void onRefundOutcomeQueryDue(StageDeadline deadline, Clock clock) {
        refund(RefundId.of(deadline.operationId())).ifPresent(refund -> refund.queryDue(deadline, clock));
    }

    @DeadlineHandler(deadlineName = CONFIRM_TIMEOUT)
    void onConfirmTimeout(StageDeadline deadline, Clock clock) {
        if (multi) {
            // the first operation's time limit ends the wait for the session's one confirmation
            boolean due = operationDue(deadline, Trigger.CONFIRM_TIMEOUT).isPresent()
                    && operations().stream().allMatch(operation -> operation.allows(Trigger.CONFIRM_TIMEOUT));
            if (due) {
                apply(new SessionCancelledEvent(sessionId, ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT,
                        "The partner did not confirm in time"), WireFormat.now(clock)));
            }
            return;
        }
        operationDue(deadline, Trigger.CONFIRM_TIMEOUT).ifPresent(operation -> operation.cancel(
                ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "The partner did not confirm in time"), clock));
    }

    @DeadlineHandler(deadlineName = PAYER_ACTION_TIMEOUT)
    void onPayerActionTimeout(StageDeadline deadline, Clock clock) {
        operationDue(deadline, Trigger.PAYER_ACTION_TIMEOUT)
                .ifPresent(operation -> operation.payerActionTimedOut(clock));
    }

    @DeadlineHandler(deadlineName = CAPTURE_TIMEOUT)
    void onCaptureTimeout(StageDeadline deadline, Clock clock) {
        operationDue(deadline, Trigger.CAPTURE_TIMEOUT).ifPresent(operation -> operation.cancel(
                ErrorDetails.of(ErrorCode.CAPTURE_TIMEOUT, "The partner did not capture in time; the hold is released"),
                clock));
    }

    @DeadlineHandler(deadlineName = OUTCOME_QUERY)
    void onOutcomeQueryDue(StageDeadline deadline, Clock clock) {
        operationDue(deadline, Trigger.OUTCOME_QUERY_DUE).ifPresent(operation -> operation.queryDue(clock));
    }

    /**
     * The operation a deadline acts on: the one under way, if the deadline was set for it in its current stage and
     * the table allows {@code trigger} now; otherwise the deadline is stale and does nothing.
     */
    private Optional<Operation> operationDue(StageDeadline deadline, Trigger trigger) {
        Optional<Operation> named = multi
                ? operations().stream().filter(operation -> operation.operationId().equals(deadline.operationId()))
                        .findFirst()
                : Optional.ofNullable(current);
        return named.filter(operation -> operation.isCurrent(deadline) && operation.allows(trigger));
    }

    /** Every operation of the session, payments first. */
    private List<Operation> operations() {
        List<Operation> all = new ArrayList<>(payments.values());
        all.addAll(payouts.values());
        return all;
    }

    /** A multi-session's command that acts on all its operations: every one must allow it. */
    private void requireAll(Trigger trigger) {
        for (Operation operation : operations()) {
            if (!operation.allows(trigger)) {
                throw PaymentsException.wrongState(trigger.description() + " acts on every operation of a "
                        + "multi-session, and " + operation.operationId() + " is " + operation.state().wireStatus());
            }
        }
    }

    private void requireSingle(String refusal) {
        if (multi) {
            throw PaymentsException.wrongState(refusal);
        }
    }

    /**
     * The operation under way, for a command that names none; a session without one refuses {@code trigger} as the
     * table says (no row lets these triggers act on no operation).
     */
    private Operation operation(Trigger trigger) {
        if (current == null) {
            advance(trigger);
            throw new IllegalStateException("the transition table lets " + trigger + " act on no operation");
        }
        return current;
    }

    private Payment payment(PaymentId reported) {
        Payment payment = payments.get(reported);
        if (payment == null) {
            throw PaymentsException.wrongState("The session has no payment " + reported);
        }
        return payment;
    }

    private Payout payout(PayoutId reported) {
        Payout payout = payouts.get(reported);
        if (payout == null) {
            throw PaymentsException.wrongState("The session has no payout " + reported);
        }
        return payout;
    }

    private Optional<Refund> refund(RefundId refundId) {
        return payments.values().stream().flatMap(payment -> payment.refund(refundId).stream()).findFirst();
    }

    private SessionStatus sessionStatus() {
        if (multi) {
            List<OperationState> states = operations().stream().map(Operation::state).toList();
            return states.contains(OperationState.ERROR) ? SessionStatus.ERROR
                    : !states.stream().allMatch(OperationState::isFinal) ? SessionStatus.IN_PROGRESS
                    : states.stream().allMatch(state -> state == OperationState.SUCCEEDED) ? SessionStatus.ACCEPTED
                    : SessionStatus.CANCELLED;
        }
        if (current == null) {
            return cancelled ? SessionStatus.CANCELLED : SessionStatus.CREATED;
        }
        return current.sessionStatus();
    }

    private OperationState operationState() {
        return current == null ? SessionLifecycle.NONE : current.state();
    }

    /** Refuses, with the table's description, a command whose trigger the table does not allow now. */
    private void advance(Trigger trigger) {
        if (SessionLifecycle.next(sessionStatus(), operationState(), trigger) instanceof Refused refused) {
            throw PaymentsException.wrongState(refused.description());
        }
    }

    /** A stored session event the table does not allow now means the stream and the table disagree. */
    private void record(Trigger trigger) {
        if (!SessionLifecycle.next(sessionStatus(), operationState(), trigger).allowed()) {
            throw new IllegalStateException("The transition table does not allow " + trigger + " while the session "
                    + sessionId + " is " + sessionStatus() + " and its operation " + operationState());
        }
    }

    private void requireProject(String requester) {
        if (!project.equals(requester)) {
            throw new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The session belongs to another project");
        }
    }

    @EventSourcingHandler
    void on(SessionCreatedEvent event) {
        sessionId = event.sessionId();
        project = event.project();
        draft = event.paymentDraft() == null ? PaymentData.EMPTY : event.paymentDraft();
        payoutDraft = event.payoutDraft() == null ? PayoutData.EMPTY : event.payoutDraft();
        multi = event.multi();
    }

    /** The payment is created here, in the state the table starts it in; Axon then forwards the event to it too. */
    @EventSourcingHandler
    void on(PaymentStartedEvent event) {
        Payment payment = new Payment(sessionId, project, event);
        if (!multi) {
            record(Trigger.START_PAYMENT);
            current = payment;
        }
        payments.put(event.paymentId(), payment);
        draft = PaymentData.EMPTY;
    }

    /** The payout is created here, in the state the table starts it in; Axon then forwards the event to it too. */
    @EventSourcingHandler
    void on(PayoutStartedEvent event) {
        Payout payout = new Payout(sessionId, event);
        if (!multi) {
            record(Trigger.START_PAYOUT);
            current = payout;
        }
        payouts.put(event.payoutId(), payout);
        payoutDraft = PayoutData.EMPTY;
    }

    /** What this aggregate holds of the session's personal data reads as it would from the erased events. */
    @EventSourcingHandler
    void on(PersonalDataErasedEvent event) {
        erasures.add(event.erasureId());
        draft = PersonalData.erased(draft, PaymentData.class);
        payoutDraft = PersonalData.erased(payoutDraft, PayoutData.class);
        payments.values().forEach(Payment::erasePersonalData);
        payouts.values().forEach(Payout::erasePersonalData);
    }

    /** The session's own event: the operation under way, if any, ends as the table says. */
    @EventSourcingHandler
    void on(SessionCancelledEvent event) {
        if (multi) {
            // every operation still under way waits for the confirmation: the table cancels it
            operations().stream().filter(operation -> !operation.state().isFinal())
                    .forEach(operation -> operation.record(Trigger.CANCEL, Trigger.CONFIRM_TIMEOUT));
        } else if (current == null) {
            record(Trigger.CANCEL);
        } else {
            current.record(Trigger.CANCEL, Trigger.CONFIRM_TIMEOUT, Trigger.CAPTURE_TIMEOUT);
        }
        cancelled = true;
    }
}
