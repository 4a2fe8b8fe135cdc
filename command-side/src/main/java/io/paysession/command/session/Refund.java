package io.paysession.command.session;

import io.paysession.api.erasure.PersonalData;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundOutcomeQueryRequestedEvent;
import io.paysession.api.session.RefundOutcomeOverdueEvent;
import io.paysession.api.session.RefundOutcomeUnknownEvent;
import io.paysession.api.session.RefundState;
import io.paysession.api.session.SessionId;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.session.SessionLifecycle.RefundTrigger;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.EntityId;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * One refund of a payment: an entity of the Session aggregate, reached by its {@code refundId}. It keeps its own
 * state from the refund table of {@link SessionLifecycle} (one machine per kind of transaction), its amount, and,
 * while the rail's answer is lost, how often the rail was asked and the stage its query deadline guards
 * ({@link StageDeadline} with the refund's id). It is created by its payment from {@code RefundRequestedEvent} (a
 * chargeback: {@code ChargebackOpenedEvent}) and never handles that event itself (Axon forwards the event to the new entity too, after the payment's handler).
 */
final class Refund {

    @EntityId
    private final RefundId refundId;
    private final SessionId sessionId;
    private final PaymentId paymentId;
    private RailOrder order;
    private final Money amount;
    /** A chargeback: the payer's bank took the money back; never sent to the rail, never queried. */
    private final boolean chargeback;
    private RefundState state;
    private int queries;
    private int stage;

    /** The session's personal data keys were erased: this refund's copy of the order is erased too. */
    void erasePersonalData() {
        order = PersonalData.erased(order, RailOrder.class);
    }

    Refund(SessionId sessionId, PaymentId paymentId, RailOrder order, RefundId refundId, Money amount) {
        this(sessionId, paymentId, order, refundId, amount, false);
    }

    private Refund(SessionId sessionId, PaymentId paymentId, RailOrder order, RefundId refundId, Money amount,
                   boolean chargeback) {
        this.sessionId = sessionId;
        this.paymentId = paymentId;
        this.order = order;
        this.refundId = refundId;
        this.amount = amount;
        this.chargeback = chargeback;
        record(RefundTrigger.REQUEST);
    }

    /** A chargeback, opened in progress like a refund requested. */
    static Refund chargeback(SessionId sessionId, PaymentId paymentId, RailOrder order, RefundId refundId,
                             Money amount) {
        return new Refund(sessionId, paymentId, order, refundId, amount, true);
    }

    /** Whether a refund {@code refund} ({@link SessionLifecycle#NO_REFUND}: none yet) allows {@code trigger}. */
    static boolean allows(Refund refund, RefundTrigger trigger) {
        return SessionLifecycle.next(refund == null ? SessionLifecycle.NO_REFUND : refund.state, trigger).isPresent();
    }

    /** The refusal of a command about a refund that is unknown or no longer waits for the rail. */
    static PaymentsException notInProgress(RefundId refundId) {
        return PaymentsException.wrongState("The refund " + refundId + " is not in progress");
    }

    Money amount() {
        return amount;
    }

    RefundState state() {
        return state;
    }

    void recordOutcome(RecordRefundOutcomeCommand command, Clock clock) {
        require(command.accepted() ? RefundTrigger.ACCEPTED : RefundTrigger.DECLINED);
        Instant now = WireFormat.now(clock);
        if (command.accepted()) {
            apply(new RefundAcceptedEvent(sessionId, paymentId, refundId, now));
        } else {
            apply(new RefundDeclinedEvent(sessionId, paymentId, refundId, command.declineReason(), now));
        }
    }

    /**
     * The rail's answer was lost: the refund may have been paid, so it stays in progress (and its amount counts
     * against what is left to refund) and the rail is asked about it when the deadline falls due.
     */
    void recordOutcomeUnknown(ErrorDetails reason, Clock clock, Deadlines deadlines, SessionTimeLimits limits) {
        require(RefundTrigger.OUTCOME_UNKNOWN);
        int queriesMade = queries;
        Instant now = WireFormat.now(clock);
        apply(new RefundOutcomeUnknownEvent(sessionId, paymentId, refundId, reason, queriesMade, now));
        if (state == RefundState.IN_PROGRESS && limits.overdueAfter(queriesMade)) {
            require(RefundTrigger.OUTCOME_OVERDUE);
            apply(new RefundOutcomeOverdueEvent(sessionId, paymentId, refundId,
                    Operation.overdueError("refund", queriesMade), now));
        }
        deadlines.schedule(sessionId, Session.REFUND_OUTCOME_QUERY, limits.outcomeQueryDelay(queriesMade),
                new StageDeadline(refundId.value(), stage));
    }

    /** The query deadline fell due: the rail is asked again, unless the refund has moved on since it was set. */
    void queryDue(StageDeadline deadline, Clock clock) {
        if (allows(this, RefundTrigger.OUTCOME_QUERY_DUE) && stage == deadline.stage()) {
            apply(new RefundOutcomeQueryRequestedEvent(sessionId, paymentId, refundId, order, amount, queries + 1,
                    WireFormat.now(clock)));
        }
    }

    private void require(RefundTrigger trigger) {
        if (!allows(this, trigger)) {
            throw notInProgress(refundId);
        }
    }

    @EventSourcingHandler
    void on(RefundOutcomeUnknownEvent event) {
        record(RefundTrigger.OUTCOME_UNKNOWN);
        stage++;
    }

    /** Keeps the stage: the query deadline set with the unknown answer still applies. */
    @EventSourcingHandler
    void on(RefundOutcomeOverdueEvent event) {
        record(RefundTrigger.OUTCOME_OVERDUE);
    }

    @EventSourcingHandler
    void on(RefundOutcomeQueryRequestedEvent event) {
        record(RefundTrigger.OUTCOME_QUERY_DUE);
        queries = event.query();
    }

    @EventSourcingHandler
    void on(RefundAcceptedEvent event) {
        record(RefundTrigger.ACCEPTED);
    }

    @EventSourcingHandler
    void on(RefundDeclinedEvent event) {
        record(RefundTrigger.DECLINED);
    }

    /**
     * Two refunds are equal when all they hold is: Axon's test fixture compares the aggregate a command left with
     * the one its events rebuild, and so finds state a command changed without an event.
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof Refund refund && refundId.equals(refund.refundId)
                && sessionId.equals(refund.sessionId) && paymentId.equals(refund.paymentId)
                && Objects.equals(order, refund.order) && amount.equals(refund.amount) && state == refund.state
                && chargeback == refund.chargeback
                && queries == refund.queries && stage == refund.stage;
    }

    @Override
    public int hashCode() {
        return refundId.hashCode();
    }

    @Override
    public String toString() {
        return "Refund[" + refundId + ", " + amount + ", " + state + ", queries=" + queries + ", stage=" + stage + "]";
    }

    /** Applies what the refund table answers for {@code trigger}; a stored event it does not allow is an error. */
    private void record(RefundTrigger trigger) {
        state = SessionLifecycle.next(state, trigger)
                .orElseThrow(() -> new IllegalStateException("The refund table does not allow " + trigger
                        + " for the refund " + refundId + " in " + state));
    }
}
