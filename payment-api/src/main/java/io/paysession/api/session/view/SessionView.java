package io.paysession.api.session.view;

import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.NextAction;
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
                          long version) {

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
                capturedAt, error, payments, all, version);
    }

    SessionView withPayout(String payoutId, UnaryOperator<PayoutView> change) {
        List<PayoutView> all = payouts.stream()
                .map(payout -> payout.id().equals(payoutId) ? change.apply(payout) : payout)
                .toList();
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments, all, version);
    }

    public Optional<PaymentView> payment(String paymentId) {
        return payments.stream().filter(payment -> payment.id().equals(paymentId)).findFirst();
    }

    SessionView withStatus(SessionStatus newStatus) {
        return new SessionView(id, project, apiVersion, newStatus, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments, payouts, version);
    }

    SessionView withNextAction(NextAction action) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, action, confirmedAt,
                capturedAt, error, payments, payouts, version);
    }

    SessionView withCapturedAt(Instant at) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                at, error, payments, payouts, version);
    }

    SessionView withConfirmedAt(Instant at) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, at,
                capturedAt, error, payments, payouts, version);
    }

    SessionView withError(ErrorDetails newError) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, newError, payments, payouts, version);
    }

    SessionView withPaymentAdded(PaymentView payment) {
        List<PaymentView> all = new ArrayList<>(payments);
        all.add(payment);
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, all, payouts, version);
    }

    SessionView withPayment(String paymentId, UnaryOperator<PaymentView> change) {
        List<PaymentView> all = payments.stream()
                .map(payment -> payment.id().equals(paymentId) ? change.apply(payment) : payment)
                .toList();
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, all, payouts, version);
    }

    SessionView withEveryPayout(UnaryOperator<PayoutView> change) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments, payouts.stream().map(change).toList(), version);
    }

    SessionView withEveryPayment(UnaryOperator<PaymentView> change) {
        return new SessionView(id, project, apiVersion, status, createdAt, updatedAt, nextAction, confirmedAt,
                capturedAt, error, payments.stream().map(change).toList(), payouts, version);
    }

    SessionView touched(Instant at, long newVersion) {
        return new SessionView(id, project, apiVersion, status, createdAt, at, nextAction, confirmedAt,
                capturedAt, error, payments, payouts, newVersion);
    }
}
