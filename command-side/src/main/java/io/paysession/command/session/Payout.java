package io.paysession.command.session;

import io.paysession.api.erasure.PersonalData;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutOutcomeQueryRequestedEvent;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PayoutOutcomeOverdueEvent;
import io.paysession.api.session.PayoutOutcomeUnknownEvent;
import io.paysession.api.session.PayoutReadyToConfirmEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.session.SessionLifecycle.Rule;
import io.paysession.command.session.SessionLifecycle.Trigger;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.EntityId;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A session's payout: an entity of the Session aggregate, reached by its {@code payoutId} (the payout events carry
 * it). It keeps the payout's data, sent to the bank on confirmation, and the queries made of a bank that did not
 * answer. A payout is never held, captured or refunded, and never waits for its payer. It is created by the session
 * from {@code PayoutStartedEvent} and does not handle that event itself.
 */
final class Payout extends Operation {

    @EntityId
    private final PayoutId payoutId;
    private PayoutData payout;
    private int outcomeQueries;

    /** The session's personal data keys were erased: this payout's copy of it is erased too (docs/erasure.md). */
    void erasePersonalData() {
        payout = PersonalData.erased(payout, PayoutData.class);
    }

    Payout(SessionId sessionId, PayoutStartedEvent started) {
        super(sessionId, Trigger.START_PAYOUT);
        this.payoutId = started.payoutId();
        this.payout = started.payout();
    }

    @Override
    String operationId() {
        return payoutId.value();
    }

    @Override
    List<Rule> rows() {
        return SessionLifecycle.payoutRows();
    }

    void markReadyToConfirm(Clock clock, Deadlines deadlines, SessionTimeLimits limits) {
        advance(Trigger.PRECHECK_PASSED);
        apply(new PayoutReadyToConfirmEvent(sessionId, payoutId, WireFormat.now(clock)));
        schedule(deadlines, Session.CONFIRM_TIMEOUT, limits.confirm());
    }

    @Override
    void confirm(Clock clock) {
        advance(Trigger.CONFIRM);
        apply(new PayoutConfirmedEvent(sessionId, payoutId, payout, WireFormat.now(clock)));
    }

    void recordOutcome(AuthorizationOutcome outcome, Clock clock, Deadlines deadlines,
                       SessionTimeLimits limits) {
        Instant now = WireFormat.now(clock);
        if (outcome instanceof AuthorizationOutcome.Approved approved) {
            advance(Trigger.APPROVED);
            apply(new PayoutSucceededEvent(sessionId, payoutId, approved.transactionInfo(), now));
        } else if (outcome instanceof AuthorizationOutcome.Declined declined) {
            advance(Trigger.DECLINED);
            fail(declined.reason(), clock);
        } else if (outcome instanceof AuthorizationOutcome.Unknown unknown) {
            advance(Trigger.OUTCOME_UNKNOWN);
            apply(new PayoutOutcomeUnknownEvent(sessionId, payoutId, unknown.reason(), outcomeQueries, now));
            if (state() == OperationState.OUTCOME_UNKNOWN && limits.overdueAfter(outcomeQueries)) {
                advance(Trigger.OUTCOME_OVERDUE);
                apply(new PayoutOutcomeOverdueEvent(sessionId, payoutId, overdueError("payout", outcomeQueries),
                        overdueSessionError(payoutId.value()), now));
            }
            schedule(deadlines, Session.OUTCOME_QUERY, limits.outcomeQueryDelay(outcomeQueries));
        } else {
            throw PaymentsException.wrongState("A payout cannot be " + outcome.getClass().getSimpleName());
        }
    }

    @Override
    void capture(Money amount, Clock clock) {
        throw PaymentsException.wrongState("A payout cannot be captured");
    }

    @Override
    void refund(RefundSessionCommand command, Clock clock) {
        throw PaymentsException.wrongState("A payout cannot be refunded");
    }

    @Override
    void chargeback(OpenChargebackCommand command, Clock clock) {
        throw PaymentsException.wrongState("A payout cannot be charged back");
    }

    @Override
    void queryDue(Clock clock) {
        apply(new PayoutOutcomeQueryRequestedEvent(sessionId, payoutId, payout, outcomeQueries + 1,
                WireFormat.now(clock)));
    }

    /** The table never lets a payout wait for its payer, so its time limit never reaches one. */
    @Override
    void payerActionTimedOut(Clock clock) {
        throw new IllegalStateException("The payout " + payoutId + " does not wait for its payer");
    }

    @Override
    void cancel(ErrorDetails reason, Clock clock) {
        apply(new SessionCancelledEvent(sessionId, reason, WireFormat.now(clock)));
    }

    @Override
    void fail(ErrorDetails reason, Clock clock) {
        ErrorDetails sessionError = ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                "The session was cancelled because its payout failed: " + reason.code().code());
        apply(new PayoutFailedEvent(sessionId, payoutId, reason, sessionError, WireFormat.now(clock)));
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
    void on(PayoutOutcomeOverdueEvent event) {
        record(Trigger.OUTCOME_OVERDUE);
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

    /** Equal when all they hold is: Axon's test fixture compares the state a command left with the rebuilt one. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Payout that && sameLifecycle(that) && payoutId.equals(that.payoutId)
                && Objects.equals(payout, that.payout) && outcomeQueries == that.outcomeQueries;
    }

    @Override
    public int hashCode() {
        return payoutId.hashCode();
    }

    @Override
    public String toString() {
        return "Payout[" + payoutId + ", " + lifecycle() + "]";
    }
}
