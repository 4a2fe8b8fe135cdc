package io.paysession.api.session.view;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.NextAction;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.SessionStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A session as partners see it, folded from its events by {@link SessionViewFold}; rendered in an API
 * version's naming by {@link SessionRepresentation}. {@code version} is the sequence number of the last
 * event folded in. Absent values are {@code null}.
 */
public record SessionView(String id,
                          String project,
                          ApiVersion apiVersion,
                          SessionStatus status,
                          Instant createdAt,
                          Instant updatedAt,
                          NextAction nextAction,
                          Instant confirmedAt,
                          Instant capturedAt,
                          ErrorDetails error,
                          List<PaymentView> payments,
                          List<PayoutView> payouts,
                          long version,
                          boolean multi) {

    public SessionView {
        payments = List.copyOf(payments);
        payouts = payouts == null ? List.of() : List.copyOf(payouts);
    }

    public Optional<PayoutView> payout(String payoutId) {
        return payouts.stream().filter(payout -> payout.id().equals(payoutId)).findFirst();
    }

    SessionView withPayoutAdded(PayoutView payout) {
        List<PayoutView> all = new ArrayList<>(payouts);
        all.add(payout);
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments, all, version, multi);
    }

    SessionView withPayout(String payoutId, UnaryOperator<PayoutView> change) {
        List<PayoutView> all = payouts.stream()
                .map(payout -> payout.id().equals(payoutId) ? change.apply(payout) : payout)
                .toList();
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments, all, version, multi);
    }

    public Optional<PaymentView> payment(String paymentId) {
        return payments.stream().filter(payment -> payment.id().equals(paymentId)).findFirst();
    }

    SessionView withStatus(SessionStatus newStatus) {
        return new SessionView(id, project, apiVersion, newStatus, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments, payouts, version, multi);
    }

    SessionView withNextAction(NextAction action) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, action, confirmedAt,
                capturedAt, error, payments, payouts, version, multi);
    }

    SessionView withCapturedAt(Instant at) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                at, error, payments, payouts, version, multi);
    }

    SessionView withConfirmedAt(Instant at) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, at,
                capturedAt, error, payments, payouts, version, multi);
    }

    SessionView withError(ErrorDetails newError) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, newError, payments, payouts, version, multi);
    }

    SessionView withPaymentAdded(PaymentView payment) {
        List<PaymentView> all = new ArrayList<>(payments);
        all.add(payment);
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, all, payouts, version, multi);
    }

    SessionView withPayment(String paymentId, UnaryOperator<PaymentView> change) {
        List<PaymentView> all = payments.stream()
                .map(payment -> payment.id().equals(paymentId) ? change.apply(payment) : payment)
                .toList();
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, all, payouts, version, multi);
    }

    SessionView withEveryPayout(UnaryOperator<PayoutView> change) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments, payouts.stream().map(change).toList(), version, multi);
    }

    SessionView withEveryPayment(UnaryOperator<PaymentView> change) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments.stream().map(change).toList(), payouts, version, multi);
    }

    SessionView touched(Instant at, long newVersion) {
        return new SessionView(id, project, apiVersion, status, createdAt, at, nextAction, confirmedAt,
                capturedAt, error, payments, payouts, newVersion, multi);
    }

    /**
     * A multi-session's status, next action and error, from all its operations (docs/decisions.md, "Multi-sessions"):
     * {@code error} while one is in error; {@code in_progress} while one runs, with {@code next_action}
     * {@code confirm} once all wait for it; then {@code accepted} when all succeeded, else {@code cancelled}, the
     * session's error naming the operations that failed.
     */
    SessionView derivedFromOperations() {
        List<OperationState> states = new ArrayList<>();
        payments.forEach(payment -> states.add(payment.state()));
        payouts.forEach(payout -> states.add(payout.state()));
        OperationState inError = OperationState.ERROR;
        SessionStatus derived;
        NextAction action = null;
        ErrorDetails failure = null;
        if (states.isEmpty()) {
            return this;
        } else if (states.contains(inError)) {
            derived = SessionStatus.ERROR;
            failure = error;
        } else if (!states.stream().allMatch(OperationState::isFinal)) {
            derived = SessionStatus.IN_PROGRESS;
            if (states.stream().allMatch(state -> state == OperationState.AWAITING_CONFIRMATION)) {
                action = NextAction.CONFIRM;
            }
        } else if (states.stream().allMatch(state -> state == OperationState.SUCCEEDED)) {
            derived = SessionStatus.ACCEPTED;
        } else {
            derived = SessionStatus.CANCELLED;
            List<String> failed = new ArrayList<>();
            payments.stream().filter(payment -> payment.state() == OperationState.FAILED)
                    .forEach(payment -> failed.add(payment.id() + " (" + (payment.error() == null ? "failed"
                            : payment.error().code().code()) + ")"));
            payouts.stream().filter(payout -> payout.state() == OperationState.FAILED)
                    .forEach(payout -> failed.add(payout.id() + " (" + (payout.error() == null ? "failed"
                            : payout.error().code().code()) + ")"));
            // the partner's cancellation or the confirmation's time limit says why itself; otherwise the failures do
            boolean cancelledWhole = error != null && (error.code() == ErrorCode.SESSION_CANCELLED_BY_PARTNER
                    || error.code() == ErrorCode.CONFIRM_TIMEOUT);
            failure = cancelledWhole ? error : ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                    "Operations of the session failed: " + String.join(", ", failed));
        }
        return new SessionView(id, project, apiVersion, derived, createdAt, updatedAt, action, confirmedAt,
                capturedAt, failure, payments, payouts, version, multi);
    }
}
