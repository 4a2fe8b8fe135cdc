package io.paysession.command.session;

import io.paysession.api.erasure.PersonalData;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.ChargebackOpenedEvent;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureOutcomeUnknownEvent;
import io.paysession.api.session.PaymentCaptureQueryRequestedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeOverdueEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.RecurrentTokenFinishedEvent;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.RefundState;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionLimits;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.recurrent.RecurrentTokenNames;
import io.paysession.command.session.SessionLifecycle.RefundTrigger;
import io.paysession.command.session.SessionLifecycle.Rule;
import io.paysession.command.session.SessionLifecycle.Trigger;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateMember;
import org.axonframework.modelling.command.EntityId;
import org.axonframework.modelling.command.ForwardMatchingInstances;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A session's payment: an entity of the Session aggregate, reached by its {@code paymentId} (the payment events
 * carry it, so each reaches only the payment it names). It keeps the order sent to the rail, the partner's terms,
 * what was captured and the queries made of a rail that did not answer, and holds its {@link Refund}s. It is
 * created by the session from {@code PaymentStartedEvent} and does not handle that event itself (Axon forwards it
 * to the new payment after the session's handler).
 */
final class Payment extends Operation {

    @EntityId
    private final PaymentId paymentId;
    private final String project;
    private final PartnerTerms terms;
    private RailOrder order;
    private final boolean grantsRecurrentToken;
    /** The recurrent token this payment granted, once it has; {@code grantEnded} once the partner disabled it. */
    private String grantedToken;
    private boolean grantEnded;
    private int outcomeQueries;
    private int captureQueries;
    private Money captured;
    /** Every refund requested; events reach the refund they name. */
    @AggregateMember(eventForwardingMode = ForwardMatchingInstances.class)
    private final Map<RefundId, Refund> refunds = new HashMap<>();

    /** The session's personal data keys were erased: this payment's copy of it is erased too (docs/erasure.md). */
    void erasePersonalData() {
        order = PersonalData.erased(order, RailOrder.class);
        refunds.values().forEach(Refund::erasePersonalData);
    }

    Payment(SessionId sessionId, String project, PaymentStartedEvent started) {
        super(sessionId, Trigger.START_PAYMENT);
        this.paymentId = started.paymentId();
        this.project = project;
        this.terms = started.terms();
        this.order = started.payment().railOrder(terms);
        this.grantsRecurrentToken = started.payment().grantsRecurrentToken();
    }

    @Override
    String operationId() {
        return paymentId.value();
    }

    @Override
    List<Rule> rows() {
        return SessionLifecycle.paymentRows();
    }

    void markReadyToConfirm(Clock clock, Deadlines deadlines, SessionTimeLimits limits) {
        advance(Trigger.PRECHECK_PASSED);
        apply(new PaymentReadyToConfirmEvent(sessionId, paymentId, WireFormat.now(clock)));
        schedule(deadlines, Session.CONFIRM_TIMEOUT, limits.confirmWindow(order.method()));
    }

    @Override
    void confirm(Clock clock) {
        advance(Trigger.CONFIRM);
        apply(new PaymentConfirmedEvent(sessionId, paymentId, order, WireFormat.now(clock)));
    }

    void recordAuthorization(AuthorizationOutcome outcome, Clock clock, Deadlines deadlines,
                             SessionTimeLimits limits) {
        Instant now = WireFormat.now(clock);
        if (outcome instanceof AuthorizationOutcome.Approved approved) {
            advance(Trigger.APPROVED);
            succeed(approved.transactionInfo(), order.amount(), now);
        } else if (outcome instanceof AuthorizationOutcome.Held held) {
            advance(Trigger.HELD);
            apply(new PaymentAuthorizedEvent(sessionId, paymentId, held.transactionInfo(), now));
            schedule(deadlines, Session.CAPTURE_TIMEOUT, limits.capture());
        } else if (outcome instanceof AuthorizationOutcome.Declined declined) {
            advance(Trigger.DECLINED);
            fail(declined.reason(), clock);
        } else if (outcome instanceof AuthorizationOutcome.PayerActionRequired action) {
            advance(Trigger.PAYER_ACTION_REQUIRED);
            apply(new PaymentActionRequiredEvent(sessionId, paymentId, action.interaction(), now));
            schedule(deadlines, Session.PAYER_ACTION_TIMEOUT, limits.payerActionWindow(order.method()));
        } else if (outcome instanceof AuthorizationOutcome.Unknown unknown) {
            advance(Trigger.OUTCOME_UNKNOWN);
            apply(new PaymentOutcomeUnknownEvent(sessionId, paymentId, unknown.reason(), outcomeQueries, now));
            if (state() == OperationState.OUTCOME_UNKNOWN && limits.overdueAfter(outcomeQueries)) {
                advance(Trigger.OUTCOME_OVERDUE);
                apply(new PaymentOutcomeOverdueEvent(sessionId, paymentId, overdueError("payment", outcomeQueries),
                        overdueSessionError(paymentId.value()), now));
            }
            schedule(deadlines, Session.OUTCOME_QUERY, limits.outcomeQueryDelay(outcomeQueries));
        }
    }

    @Override
    void capture(Money requested, Clock clock) {
        advance(Trigger.CAPTURE);
        Money amount = requested == null ? order.amount() : requested;
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

    void recordCapture(TransactionInfo info, Clock clock) {
        advance(Trigger.CAPTURE_COMPLETED);
        succeed(info, captured, WireFormat.now(clock));
    }

    /**
     * The rail's answer to the capture was lost: the capture may have happened, so it is never sent again; the
     * rail is asked about it when the deadline falls due (doubling, capped, as for authorizations).
     */
    void recordCaptureOutcomeUnknown(ErrorDetails reason, Clock clock, Deadlines deadlines,
                                     SessionTimeLimits limits) {
        advance(Trigger.CAPTURE_OUTCOME_UNKNOWN);
        apply(new PaymentCaptureOutcomeUnknownEvent(sessionId, paymentId, reason, captureQueries,
                WireFormat.now(clock)));
        schedule(deadlines, Session.OUTCOME_QUERY, limits.outcomeQueryDelay(captureQueries));
    }

    @Override
    void refund(RefundSessionCommand command, Clock clock) {
        Money amount = refundable(command.refundId(), command.amount(), "refund");
        apply(new RefundRequestedEvent(sessionId, paymentId, command.refundId(), order, amount, command.metadata(),
                WireFormat.now(clock)));
    }

    /**
     * The partner disabled {@code token}: if this payment granted it and it is not shown finished yet, it is shown
     * finished from {@code finishedAt} (the token's own time). Any other token is refused as a wrong state.
     */
    void endRecurrentGrant(String token, Instant finishedAt) {
        if (grantedToken == null || !grantedToken.equals(token)) {
            throw PaymentsException.wrongState("The payment " + paymentId + " did not grant that recurrent token");
        }
        if (!grantEnded) {
            apply(new RecurrentTokenFinishedEvent(sessionId, paymentId, token, finishedAt));
        }
    }

    /**
     * The payer's bank disputes the payment: a chargeback of {@code amount} (all that is left when null), as a
     * refund the engine did not ask for. It needs what a refund needs (a paid payment, an amount left), is not sent
     * to the rail (the rail told us), and is accepted at once when the money is already withheld.
     */
    @Override
    void chargeback(OpenChargebackCommand command, Clock clock) {
        Money amount = refundable(command.refundId(), command.amount(), "chargeback");
        Instant now = WireFormat.now(clock);
        apply(new ChargebackOpenedEvent(sessionId, paymentId, command.refundId(), amount, command.reason(), now));
        if (command.withheld()) {
            apply(new RefundAcceptedEvent(sessionId, paymentId, command.refundId(), now));
        }
    }

    /**
     * The amount a new refund or chargeback {@code refundId} takes ({@code requested}, or all that is left when null),
     * after the checks both need: a paid payment, a new id, the count, the currency, what is left to refund.
     */
    private Money refundable(RefundId refundId, Money requested, String kind) {
        advance(Trigger.REFUND);
        if (!Refund.allows(refunds.get(refundId), RefundTrigger.REQUEST)) {
            throw PaymentsException.wrongState("The refund " + refundId + " exists already");
        }
        if (refunds.size() >= SessionLimits.MAX_REFUNDS_PER_PAYMENT) {
            throw new PaymentsException(ErrorCode.REFUND_LIMIT_EXCEEDED, "A payment takes at most "
                    + SessionLimits.MAX_REFUNDS_PER_PAYMENT + " refunds and chargebacks, and this one has had them");
        }
        Money left = captured.minus(refunded()).minus(inFlight());
        Money amount = requested == null ? left : requested;
        requireSameCurrency(amount, "amount_details.currency");
        if (amount.minorUnits() == 0 || amount.minorUnits() > left.minorUnits()) {
            throw new PaymentsException(ErrorCode.REFUND_AMOUNT_TOO_LARGE,
                    "The " + kind + " of " + amount + " is more than the " + left + " left to refund");
        }
        return amount;
    }

    /** The refund of this payment with {@code refundId}, if it has one. */
    Optional<Refund> refund(RefundId refundId) {
        return Optional.ofNullable(refunds.get(refundId));
    }

    @Override
    void queryDue(Clock clock) {
        if (state() == OperationState.CAPTURING) {
            apply(new PaymentCaptureQueryRequestedEvent(sessionId, paymentId, order, captured, captureQueries + 1,
                    WireFormat.now(clock)));
        } else {
            apply(new PaymentOutcomeQueryRequestedEvent(sessionId, paymentId, order, outcomeQueries + 1,
                    WireFormat.now(clock)));
        }
    }

    @Override
    void payerActionTimedOut(Clock clock) {
        PaymentMethod method = order.method();
        fail(method instanceof QrAppMethod || method instanceof FasterPaymentMethod
                ? ErrorDetails.of(ErrorCode.QR_EXPIRED, "The payment QR code expired")
                : ErrorDetails.of(ErrorCode.ACTION_TIMEOUT, "The payer did not act in time"), clock);
    }

    /** A held payment gives its hold back first: the rail is told by the process. */
    @Override
    void cancel(ErrorDetails reason, Clock clock) {
        Instant now = WireFormat.now(clock);
        if (state() == OperationState.AWAITING_CAPTURE) {
            apply(new PaymentHoldReleasedEvent(sessionId, paymentId, order, now));
        }
        apply(new SessionCancelledEvent(sessionId, reason, now));
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

    @Override
    void fail(ErrorDetails reason, Clock clock) {
        ErrorDetails sessionError = ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                "The session was cancelled because its payment failed: " + reason.code().code());
        apply(new PaymentFailedEvent(sessionId, paymentId, reason, sessionError, WireFormat.now(clock)));
    }

    private void requireSameCurrency(Money amount, String field) {
        if (!amount.sameCurrencyAs(order.amount())) {
            throw PaymentsException.invalidRequest(field + " must be the payment's currency, "
                    + order.amount().currencyCode());
        }
    }

    /** What the rail has paid back: the refunds it accepted. */
    private Money refunded() {
        return sum(RefundState.ACCEPTED);
    }

    /** What the rail may still pay back: the refunds in progress, whose answer may be lost, and those in error. */
    private Money inFlight() {
        return sum(RefundState.IN_PROGRESS).plus(sum(RefundState.ERROR));
    }

    private Money sum(RefundState state) {
        return refunds.values().stream().filter(refund -> refund.state() == state)
                .map(Refund::amount)
                .reduce(Money::plus).orElse(new Money(0, captured.currency()));
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
    void on(PaymentOutcomeOverdueEvent event) {
        record(Trigger.OUTCOME_OVERDUE);
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
    void on(RecurrentTokenGrantedEvent event) {
        grantedToken = event.token();
    }

    @EventSourcingHandler
    void on(RecurrentTokenFinishedEvent event) {
        grantEnded = true;
    }

    @EventSourcingHandler
    void on(PaymentSucceededEvent event) {
        captured = event.capturedAmount();
        record(Trigger.APPROVED, Trigger.CAPTURE_COMPLETED);
    }

    @EventSourcingHandler
    void on(PaymentFailedEvent event) {
        record(Trigger.PRECHECK_REFUSED, Trigger.DECLINED, Trigger.PAYER_ACTION_TIMEOUT);
    }

    /** The refund is created here; Axon then forwards the event to it as well, and the refund ignores it. */
    @EventSourcingHandler
    void on(RefundRequestedEvent event) {
        Refund existing = refunds.get(event.refundId());
        if (!Refund.allows(existing, RefundTrigger.REQUEST)) {
            throw new IllegalStateException("The refund table does not allow " + RefundTrigger.REQUEST
                    + " for the refund " + event.refundId() + " in " + existing.state());
        }
        refunds.put(event.refundId(), new Refund(sessionId, paymentId, order, event.refundId(), event.amount()));
    }

    /** A chargeback is a refund of its own kind, created here like a refund. */
    @EventSourcingHandler
    void on(ChargebackOpenedEvent event) {
        Refund existing = refunds.get(event.refundId());
        if (!Refund.allows(existing, RefundTrigger.REQUEST)) {
            throw new IllegalStateException("The refund table does not allow " + RefundTrigger.REQUEST
                    + " for the chargeback " + event.refundId() + " in " + existing.state());
        }
        refunds.put(event.refundId(), Refund.chargeback(sessionId, paymentId, order, event.refundId(),
                event.amount()));
    }

    /** Equal when all they hold is: Axon's test fixture compares the state a command left with the rebuilt one. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Payment payment && sameLifecycle(payment) && paymentId.equals(payment.paymentId)
                && Objects.equals(project, payment.project) && Objects.equals(terms, payment.terms)
                && Objects.equals(order, payment.order) && grantsRecurrentToken == payment.grantsRecurrentToken
                && Objects.equals(grantedToken, payment.grantedToken) && grantEnded == payment.grantEnded
                && outcomeQueries == payment.outcomeQueries && captureQueries == payment.captureQueries
                && Objects.equals(captured, payment.captured) && refunds.equals(payment.refunds);
    }

    @Override
    public int hashCode() {
        return paymentId.hashCode();
    }

    @Override
    public String toString() {
        return "Payment[" + paymentId + ", " + lifecycle() + ", captured " + captured + ", refunds " + refunds.values()
                + "]";
    }
}
