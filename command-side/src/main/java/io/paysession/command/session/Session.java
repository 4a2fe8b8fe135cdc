package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureOutcomeUnknownEvent;
import io.paysession.api.session.PaymentCaptureQueryRequestedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.InitPayoutCommand;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutOutcomeQueryRequestedEvent;
import io.paysession.api.session.PayoutOutcomeUnknownEvent;
import io.paysession.api.session.PayoutReadyToConfirmEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.RecordPayoutOutcomeCommand;
import io.paysession.api.session.RefusePayoutCommand;
import io.paysession.api.session.StartPayoutCommand;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefundState;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.SessionLimits;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.recurrent.RecurrentTokenNames;
import io.paysession.command.session.SessionLifecycle.Allowed;
import io.paysession.command.session.SessionLifecycle.RefundTrigger;
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
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A payment session: the consistency boundary of its operation, a payment (with its refunds) or a payout. It keeps only
 * what its decisions need, does no I/O, and takes time from the injected clock. Which command is allowed
 * when, and which state follows, is decided by {@link SessionLifecycle}: the event sourcing handlers apply the
 * state its tables answer for the trigger their event records.
 * Time limits are persistent deadlines carrying the stage they guard ({@link StageDeadline}).
 */
@Aggregate
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
    private boolean cancelled;
    private PaymentData draft;
    private PayoutData payoutDraft;
    private PaymentId paymentId;
    private PayoutId payoutId;
    private PayoutData payout;
    private OperationState operationState;
    private int stage;
    private RailOrder order;
    private PartnerTerms terms;
    private boolean grantsRecurrentToken;
    private int outcomeQueries;
    private int captureQueries;
    private Money captured;
    private Money refunded;
    /** Every refund requested, each with its own state from the refund table; events reach the refund they name. */
    @AggregateMember(eventForwardingMode = ForwardMatchingInstances.class)
    private final Map<RefundId, Refund> refunds = new HashMap<>();

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
        startPayout(command.sessionId(), command.payoutId(), command.payout(), now);
    }

    @CommandHandler
    public void handle(StartPayoutCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.START_PAYOUT);
        PayoutData merged = payoutDraft.overriddenBy(command.payout());
        merged.requireComplete();
        startPayout(sessionId, command.payoutId(), merged, WireFormat.now(clock));
    }

    /**
     * A recipient verification is free and confirmed automatically: no {@code ready_to_confirm}. Called from
     * a constructor too, where Axon applies events only after the constructor returns: so nothing here
     * reads the aggregate's fields, and the legality of the automatic confirmation is checked against the
     * state the start has just produced.
     */
    private static void startPayout(SessionId session, PayoutId id, PayoutData data, Instant now) {
        apply(new PayoutStartedEvent(session, id, data, now));
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
                       SessionTimeLimits limits) {
        requirePayout(command.payoutId());
        advance(Trigger.PRECHECK_PASSED);
        apply(new PayoutReadyToConfirmEvent(sessionId, payoutId, WireFormat.now(clock)));
        schedule(deadlines, CONFIRM_TIMEOUT, limits.confirm());
    }

    @CommandHandler
    public void handle(RefusePayoutCommand command, Clock clock) {
        requirePayout(command.payoutId());
        advance(Trigger.PRECHECK_REFUSED);
        failPayout(command.reason(), clock);
    }

    @CommandHandler
    public void handle(RecordPayoutOutcomeCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits) {
        requirePayout(command.payoutId());
        Instant now = WireFormat.now(clock);
        AuthorizationOutcome outcome = command.outcome();
        if (outcome instanceof AuthorizationOutcome.Approved approved) {
            advance(Trigger.APPROVED);
            apply(new PayoutSucceededEvent(sessionId, payoutId, approved.transactionInfo(), now));
        } else if (outcome instanceof AuthorizationOutcome.Declined declined) {
            advance(Trigger.DECLINED);
            failPayout(declined.reason(), clock);
        } else if (outcome instanceof AuthorizationOutcome.Unknown unknown) {
            advance(Trigger.OUTCOME_UNKNOWN);
            apply(new PayoutOutcomeUnknownEvent(sessionId, payoutId, unknown.reason(), outcomeQueries, now));
            schedule(deadlines, OUTCOME_QUERY, limits.outcomeQueryDelay(outcomeQueries));
        } else {
            throw PaymentsException.wrongState("A payout cannot be " + outcome.getClass().getSimpleName());
        }
    }

    @CommandHandler
    public void handle(MarkPaymentReadyToConfirmCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits) {
        requirePayment(command.paymentId());
        advance(Trigger.PRECHECK_PASSED);
        apply(new PaymentReadyToConfirmEvent(sessionId, paymentId, WireFormat.now(clock)));
        schedule(deadlines, CONFIRM_TIMEOUT, limits.confirmWindow(order.method()));
    }

    @CommandHandler
    public void handle(RefusePaymentCommand command, Clock clock) {
        requirePayment(command.paymentId());
        advance(Trigger.PRECHECK_REFUSED);
        fail(command.reason(), clock);
    }

    @CommandHandler
    public void handle(ConfirmSessionCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.CONFIRM);
        if (payoutId != null) {
            apply(new PayoutConfirmedEvent(sessionId, payoutId, payout, WireFormat.now(clock)));
        } else {
            apply(new PaymentConfirmedEvent(sessionId, paymentId, order, WireFormat.now(clock)));
        }
    }

    @CommandHandler
    public void handle(CancelSessionCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.CANCEL);
        cancel(ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, CANCELLED_BY_PARTNER), clock);
    }

    @CommandHandler
    public void handle(RecordPaymentAuthorizationCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits) {
        requirePayment(command.paymentId());
        AuthorizationOutcome outcome = command.outcome();
        Instant now = WireFormat.now(clock);
        if (outcome instanceof AuthorizationOutcome.Approved approved) {
            advance(Trigger.APPROVED);
            succeed(approved.transactionInfo(), order.amount(), now);
        } else if (outcome instanceof AuthorizationOutcome.Held held) {
            advance(Trigger.HELD);
            apply(new PaymentAuthorizedEvent(sessionId, paymentId, held.transactionInfo(), now));
            schedule(deadlines, CAPTURE_TIMEOUT, limits.capture());
        } else if (outcome instanceof AuthorizationOutcome.Declined declined) {
            advance(Trigger.DECLINED);
            fail(declined.reason(), clock);
        } else if (outcome instanceof AuthorizationOutcome.PayerActionRequired action) {
            advance(Trigger.PAYER_ACTION_REQUIRED);
            apply(new PaymentActionRequiredEvent(sessionId, paymentId, action.interaction(), now));
            schedule(deadlines, PAYER_ACTION_TIMEOUT, limits.payerActionWindow(order.method()));
        } else if (outcome instanceof AuthorizationOutcome.Unknown unknown) {
            advance(Trigger.OUTCOME_UNKNOWN);
            apply(new PaymentOutcomeUnknownEvent(sessionId, paymentId, unknown.reason(), outcomeQueries, now));
            schedule(deadlines, OUTCOME_QUERY, limits.outcomeQueryDelay(outcomeQueries));
        }
    }

    @CommandHandler
    public void handle(CaptureSessionCommand command, Clock clock) {
        requireProject(command.project());
        requireNoPayout("captured");
        advance(Trigger.CAPTURE);
        Money amount = command.amount() == null ? order.amount() : command.amount();
        requireSameCurrency(amount, "amount_details.currency");
        if (amount.minorUnits() == 0) {
            throw PaymentsException.invalidRequest("amount_details.amount must be greater than zero");
        }
        if (amount.minorUnits() > order.amount().minorUnits()) {
            throw new PaymentsException(ErrorCode.CAPTURE_AMOUNT_TOO_LARGE,
                    "The capture of " + amount + " is more than the hold of " + order.amount());
        }
        apply(new PaymentCaptureRequestedEvent(sessionId, paymentId, order, amount, WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(RecordPaymentCaptureCommand command, Clock clock) {
        requirePayment(command.paymentId());
        advance(Trigger.CAPTURE_COMPLETED);
        succeed(command.transactionInfo(), captured, WireFormat.now(clock));
    }

    /**
     * The rail's answer to the capture was lost: the capture may have happened, so it is never sent again; the
     * rail is asked about it when the deadline falls due (doubling, capped, as for authorizations).
     */
    @CommandHandler
    public void handle(RecordCaptureOutcomeUnknownCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits) {
        requirePayment(command.paymentId());
        advance(Trigger.CAPTURE_OUTCOME_UNKNOWN);
        apply(new PaymentCaptureOutcomeUnknownEvent(sessionId, paymentId, command.reason(), captureQueries,
                WireFormat.now(clock)));
        schedule(deadlines, OUTCOME_QUERY, limits.outcomeQueryDelay(captureQueries));
    }

    @CommandHandler
    public void handle(RefundSessionCommand command, Clock clock) {
        requireProject(command.project());
        requireNoPayout("refunded");
        advance(Trigger.REFUND);
        if (!Refund.allows(refunds.get(command.refundId()), RefundTrigger.REQUEST)) {
            throw PaymentsException.wrongState("The refund " + command.refundId() + " exists already");
        }
        if (refunds.size() >= SessionLimits.MAX_REFUNDS_PER_PAYMENT) {
            throw new PaymentsException(ErrorCode.REFUND_LIMIT_EXCEEDED, "A payment takes at most "
                    + SessionLimits.MAX_REFUNDS_PER_PAYMENT + " refunds, and this one has had them");
        }
        Money left = captured.minus(refunded).minus(inFlight());
        Money amount = command.amount() == null ? left : command.amount();
        requireSameCurrency(amount, "amount_details.currency");
        if (amount.minorUnits() == 0 || amount.minorUnits() > left.minorUnits()) {
            throw new PaymentsException(ErrorCode.REFUND_AMOUNT_TOO_LARGE,
                    "The refund of " + amount + " is more than the " + left + " left to refund");
        }
        apply(new RefundRequestedEvent(sessionId, paymentId, command.refundId(), order, amount, command.metadata(),
                WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(RecordRefundOutcomeCommand command, Clock clock) {
        refund(command.refundId()).recordOutcome(command, clock);
    }

    /**
     * The rail's answer to a refund was lost: the refund may have been paid, so it stays in progress (and its
     * amount counts against what is left to refund) and the rail is asked about it when the deadline falls due.
     */
    @CommandHandler
    public void handle(RecordRefundOutcomeUnknownCommand command, Clock clock, DeadlineManager deadlines,
                       SessionTimeLimits limits) {
        refund(command.refundId()).recordOutcomeUnknown(command.reason(), clock, deadlines, limits);
    }

    /** The deadline names the refund it was set for; a refund the session does not hold has nothing to query. */
    @DeadlineHandler(deadlineName = REFUND_OUTCOME_QUERY)
    void onRefundOutcomeQueryDue(StageDeadline deadline, Clock clock) {
        Refund refund = refunds.get(RefundId.of(deadline.operationId()));
        if (refund != null) {
            refund.queryDue(deadline, clock);
        }
    }

    @DeadlineHandler(deadlineName = CONFIRM_TIMEOUT)
    void onConfirmTimeout(StageDeadline deadline, Clock clock) {
        if (isCurrent(deadline) && allows(Trigger.CONFIRM_TIMEOUT)) {
            cancel(ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "The partner did not confirm in time"), clock);
        }
    }

    @DeadlineHandler(deadlineName = PAYER_ACTION_TIMEOUT)
    void onPayerActionTimeout(StageDeadline deadline, Clock clock) {
        if (isCurrent(deadline) && allows(Trigger.PAYER_ACTION_TIMEOUT)) {
            PaymentMethod method = order.method();
            fail(method instanceof QrAppMethod || method instanceof FasterPaymentMethod
                    ? ErrorDetails.of(ErrorCode.QR_EXPIRED, "The payment QR code expired")
                    : ErrorDetails.of(ErrorCode.ACTION_TIMEOUT, "The payer did not act in time"), clock);
        }
    }

    @DeadlineHandler(deadlineName = CAPTURE_TIMEOUT)
    void onCaptureTimeout(StageDeadline deadline, Clock clock) {
        if (isCurrent(deadline) && allows(Trigger.CAPTURE_TIMEOUT)) {
            cancel(ErrorDetails.of(ErrorCode.CAPTURE_TIMEOUT, "The partner did not capture in time; the hold is released"),
                    clock);
        }
    }

    @DeadlineHandler(deadlineName = OUTCOME_QUERY)
    void onOutcomeQueryDue(StageDeadline deadline, Clock clock) {
        if (isCurrent(deadline) && allows(Trigger.OUTCOME_QUERY_DUE)) {
            if (operationState == OperationState.CAPTURING) {
                apply(new PaymentCaptureQueryRequestedEvent(sessionId, paymentId, order, captured, captureQueries + 1,
                        WireFormat.now(clock)));
            } else if (payoutId != null) {
                apply(new PayoutOutcomeQueryRequestedEvent(sessionId, payoutId, payout, outcomeQueries + 1,
                        WireFormat.now(clock)));
            } else {
                apply(new PaymentOutcomeQueryRequestedEvent(sessionId, paymentId, order, outcomeQueries + 1,
                        WireFormat.now(clock)));
            }
        }
    }

    /**
     * The payment is paid. A payment that asked for a recurrent token grants it first (a random name, kept in
     * the event, so a replay names it the same); a binding charges nothing and costs no fee; the
     * payer-account token is shown only to partners for whom it is enabled.
     */
    private void succeed(TransactionInfo info, Money amount, Instant now) {
        PaymentMethod method = order.method();
        if (grantsRecurrentToken) {
            apply(new RecurrentTokenGrantedEvent(sessionId, paymentId, RecurrentTokenNames.newToken(), project, method,
                    now));
        }
        Money charged = method.charges() ? amount : new Money(0, amount.currency());
        Money fee = terms.feeFor(charged);
        TransactionInfo shown = info == null ? null : info.shownUnder(terms);
        apply(new PaymentSucceededEvent(sessionId, paymentId, shown, charged, fee, now));
    }

    private void fail(ErrorDetails reason, Clock clock) {
        ErrorDetails sessionError = ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                "The session was cancelled because its payment failed: " + reason.code().code());
        apply(new PaymentFailedEvent(sessionId, paymentId, reason, sessionError, WireFormat.now(clock)));
    }

    private void failPayout(ErrorDetails reason, Clock clock) {
        ErrorDetails sessionError = ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                "The session was cancelled because its payout failed: " + reason.code().code());
        apply(new PayoutFailedEvent(sessionId, payoutId, reason, sessionError, WireFormat.now(clock)));
    }

    /** A held payment gives its hold back first: the rail is told by the process. */
    private void cancel(ErrorDetails reason, Clock clock) {
        Instant now = WireFormat.now(clock);
        if (operationState == OperationState.AWAITING_CAPTURE) {
            apply(new PaymentHoldReleasedEvent(sessionId, paymentId, order, now));
        }
        apply(new SessionCancelledEvent(sessionId, reason, now));
    }

    private void schedule(DeadlineManager deadlines, String name, Duration after) {
        deadlines.schedule(after, name, new StageDeadline(operationId(), stage));
    }

    private boolean isCurrent(StageDeadline deadline) {
        String current = operationId();
        return current != null && current.equals(deadline.operationId()) && stage == deadline.stage();
    }

    private String operationId() {
        return paymentId != null ? paymentId.value() : payoutId != null ? payoutId.value() : null;
    }

    private SessionStatus sessionStatus() {
        if (operationState == null) {
            return cancelled ? SessionStatus.CANCELLED : SessionStatus.CREATED;
        }
        return switch (operationState) {
            case SUCCEEDED -> SessionStatus.ACCEPTED;
            case FAILED -> SessionStatus.CANCELLED;
            default -> SessionStatus.IN_PROGRESS;
        };
    }

    private boolean allows(Trigger trigger) {
        return SessionLifecycle.next(sessionStatus(), operationState, trigger).allowed();
    }

    private void advance(Trigger trigger) {
        if (SessionLifecycle.next(sessionStatus(), operationState, trigger) instanceof Refused refused) {
            throw PaymentsException.wrongState(refused.description());
        }
    }

    private Refund refund(RefundId refundId) {
        Refund refund = refunds.get(refundId);
        if (refund == null) {
            throw Refund.notInProgress(refundId);
        }
        return refund;
    }

    private void requireProject(String requester) {
        if (!project.equals(requester)) {
            throw new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The session belongs to another project");
        }
    }

    private void requirePayout(PayoutId reported) {
        if (payoutId == null || !payoutId.equals(reported)) {
            throw PaymentsException.wrongState("The session has no payout " + reported);
        }
    }

    private void requireNoPayout(String what) {
        if (payoutId != null) {
            throw PaymentsException.wrongState("A payout cannot be " + what);
        }
    }

    private void requirePayment(PaymentId reported) {
        if (paymentId == null || !paymentId.equals(reported)) {
            throw PaymentsException.wrongState("The session has no payment " + reported);
        }
    }

    private void requireSameCurrency(Money amount, String field) {
        if (!amount.sameCurrencyAs(order.amount())) {
            throw PaymentsException.invalidRequest(field + " must be the payment's currency, "
                    + order.amount().currencyCode());
        }
    }

    private Money inFlight() {
        return refunds.values().stream().filter(refund -> refund.state() == RefundState.IN_PROGRESS)
                .map(Refund::amount)
                .reduce(Money::plus).orElse(new Money(0, captured.currency()));
    }

    @EventSourcingHandler
    void on(SessionCreatedEvent event) {
        sessionId = event.sessionId();
        project = event.project();
        draft = event.paymentDraft() == null ? PaymentData.EMPTY : event.paymentDraft();
        payoutDraft = event.payoutDraft() == null ? PayoutData.EMPTY : event.payoutDraft();
    }

    @EventSourcingHandler
    void on(PayoutStartedEvent event) {
        payoutId = event.payoutId();
        payout = event.payout();
        payoutDraft = PayoutData.EMPTY;
        record(Trigger.START_PAYOUT);
    }

    @EventSourcingHandler
    void on(PayoutReadyToConfirmEvent event) {
        record(Trigger.PRECHECK_PASSED);
    }

    @EventSourcingHandler
    void on(PayoutConfirmedEvent event) {
        record(Trigger.CONFIRM, Trigger.CONFIRM_AUTOMATICALLY);
    }

    @EventSourcingHandler
    void on(PayoutOutcomeUnknownEvent event) {
        record(Trigger.OUTCOME_UNKNOWN);
    }

    @EventSourcingHandler
    void on(PayoutOutcomeQueryRequestedEvent event) {
        outcomeQueries = event.query();
        record(Trigger.OUTCOME_QUERY_DUE);
    }

    @EventSourcingHandler
    void on(PayoutSucceededEvent event) {
        record(Trigger.APPROVED);
    }

    @EventSourcingHandler
    void on(PayoutFailedEvent event) {
        record(Trigger.PRECHECK_REFUSED, Trigger.DECLINED);
    }

    @EventSourcingHandler
    void on(PaymentStartedEvent event) {
        paymentId = event.paymentId();
        terms = event.terms();
        order = event.payment().railOrder(terms);
        grantsRecurrentToken = event.payment().grantsRecurrentToken();
        draft = PaymentData.EMPTY;
        record(Trigger.START_PAYMENT);
    }

    @EventSourcingHandler
    void on(PaymentReadyToConfirmEvent event) {
        record(Trigger.PRECHECK_PASSED);
    }

    @EventSourcingHandler
    void on(PaymentConfirmedEvent event) {
        record(Trigger.CONFIRM);
    }

    @EventSourcingHandler
    void on(PaymentActionRequiredEvent event) {
        record(Trigger.PAYER_ACTION_REQUIRED);
    }

    @EventSourcingHandler
    void on(PaymentOutcomeUnknownEvent event) {
        record(Trigger.OUTCOME_UNKNOWN);
    }

    @EventSourcingHandler
    void on(PaymentOutcomeQueryRequestedEvent event) {
        outcomeQueries = event.query();
        record(Trigger.OUTCOME_QUERY_DUE);
    }

    @EventSourcingHandler
    void on(PaymentAuthorizedEvent event) {
        record(Trigger.HELD);
    }

    @EventSourcingHandler
    void on(PaymentCaptureRequestedEvent event) {
        captured = event.captureAmount();
        record(Trigger.CAPTURE);
    }

    @EventSourcingHandler
    void on(PaymentCaptureOutcomeUnknownEvent event) {
        record(Trigger.CAPTURE_OUTCOME_UNKNOWN);
    }

    @EventSourcingHandler
    void on(PaymentCaptureQueryRequestedEvent event) {
        captureQueries = event.query();
        record(Trigger.OUTCOME_QUERY_DUE);
    }

    @EventSourcingHandler
    void on(PaymentSucceededEvent event) {
        captured = event.capturedAmount();
        refunded = new Money(0, captured.currency());
        record(Trigger.APPROVED, Trigger.CAPTURE_COMPLETED);
    }

    @EventSourcingHandler
    void on(PaymentFailedEvent event) {
        record(Trigger.PRECHECK_REFUSED, Trigger.DECLINED, Trigger.PAYER_ACTION_TIMEOUT);
    }

    @EventSourcingHandler
    void on(SessionCancelledEvent event) {
        record(Trigger.CANCEL, Trigger.CONFIRM_TIMEOUT, Trigger.CAPTURE_TIMEOUT);
        cancelled = true;
    }

    /** The refund is created here; Axon then forwards the event to it as well, and the refund ignores it. */
    @EventSourcingHandler
    void on(RefundRequestedEvent event) {
        if (!Refund.allows(refunds.get(event.refundId()), RefundTrigger.REQUEST)) {
            throw new IllegalStateException("The refund table does not allow " + RefundTrigger.REQUEST
                    + " for the refund " + event.refundId() + " in " + refunds.get(event.refundId()).state());
        }
        refunds.put(event.refundId(), new Refund(sessionId, paymentId, order, event.refundId(), event.amount()));
    }

    @EventSourcingHandler
    void on(RefundAcceptedEvent event) {
        refunded = refunded.plus(refunds.get(event.refundId()).amount());
    }

    /**
     * Applies what the transition table answers for the first of {@code triggers} (the triggers the event may
     * record) that it allows now. Every transition into a state starts a new stage, except a query of the rail:
     * deadlines of earlier stages no longer apply. A stored event the table allows by none of them means the
     * stream and the table disagree: the session is not rebuilt into a state the table never allowed.
     */
    private void record(Trigger... triggers) {
        SessionStatus status = sessionStatus();
        for (Trigger trigger : triggers) {
            if (SessionLifecycle.next(status, operationState, trigger) instanceof Allowed allowed) {
                if (allowed.to() != SessionLifecycle.NONE && !trigger.keepsStage()) {
                    operationState = allowed.to();
                    stage++;
                }
                return;
            }
        }
        throw new IllegalStateException("The transition table allows none of " + Arrays.toString(triggers)
                + " while the session " + sessionId + " is " + status + " and its operation " + operationState);
    }

}
