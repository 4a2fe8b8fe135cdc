package io.paysession.api.session.view;

import io.paysession.api.session.PersonalDataErasedEvent;
import io.paysession.api.session.ChargebackOpenedEvent;
import io.paysession.api.session.NextAction;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentOutcomeOverdueEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutOutcomeOverdueEvent;
import io.paysession.api.session.PayoutOutcomeUnknownEvent;
import io.paysession.api.session.PayoutReadyToConfirmEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.RecurrentTokenFinishedEvent;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundOutcomeOverdueEvent;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefundState;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionStatus;
import org.axonframework.eventhandling.DomainEventMessage;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The pure fold of a session's events into its {@link SessionView}: the one definition of what a
 * partner sees, shared by the query side (session/status), the webhook projector (webhook bodies) and
 * command responses, and usable on any prefix of the stream to see a session as it was.
 * <p>
 * The session's status follows its operation: {@code in_progress} while the payment or the payout runs,
 * {@code accepted} once paid out or paid, {@code cancelled} once failed, {@code error} while an outcome that stayed
 * unknown past the first series of the rail's queries is shown failed (not final: the rail's later answer moves it
 * on, and the session with it). Refunds do not move it: a refunded
 * payment is still {@code succeeded} and its session {@code accepted} (decisions.md section 7), each refund
 * carrying its own progress in {@code refunds[].status}; the refund events set {@code accepted} outright, so
 * that a view stored while an earlier version showed a running refund as {@code in_progress} heals itself.
 */
public final class SessionViewFold {

    private SessionViewFold() {
    }

    /**
     * Folds a whole stream, first event first; {@code sequenceNumber} of the i-th event is i. An empty
     * stream has no view: {@code null}.
     */
    public static SessionView fold(List<? extends SessionEvent> events) {
        SessionView view = null;
        long sequence = 0;
        for (SessionEvent event : events) {
            view = apply(view, event, sequence++);
        }
        return view;
    }

    /**
     * The view after {@code event}, whose sequence number in the session's stream is {@code sequenceNumber}.
     * {@code current} is {@code null} before the first event. Events that change nothing a partner sees
     * leave the view as it is, but still advance its version and update time.
     */
    /**
     * The session after the events of its stream that come before {@code sequence} (a stream read from
     * sequence 0, not from a snapshot); {@code null} when there are none.
     */
    public static SessionView before(Iterator<? extends DomainEventMessage<?>> stream, long sequence) {
        SessionView view = null;
        while (stream.hasNext()) {
            DomainEventMessage<?> earlier = stream.next();
            if (earlier.getSequenceNumber() >= sequence) {
                break;
            }
            if (earlier.getPayload() instanceof SessionEvent sessionEvent) {
                view = apply(view, sessionEvent, earlier.getSequenceNumber());
            }
        }
        return view;
    }

    /**
     * A payment in {@code error} whose rail answered after all that it waits for the payer or holds the money: the
     * session is in progress again, without the error.
     */
    private static SessionView afterError(SessionView view) {
        return view.status() == SessionStatus.ERROR ? view.withStatus(SessionStatus.IN_PROGRESS).withError(null) : view;
    }

    public static SessionView apply(SessionView current, SessionEvent event, long sequenceNumber) {
        Objects.requireNonNull(event, "event");
        if (event instanceof SessionCreatedEvent created) {
            if (current != null) {
                throw new IllegalStateException(event.sessionId() + " is created a second time");
            }
            return new SessionView(created.sessionId().value(), created.project(), created.apiVersion(),
                    SessionStatus.CREATED, created.occurredAt(), created.occurredAt(), null, null, null, null,
                    List.of(), List.of(), sequenceNumber, created.multi());
        }
        if (current == null) {
            throw new IllegalStateException("the first event of " + event.sessionId() + " is not SessionCreatedEvent");
        }
        SessionView after = applyTo(current, event).touched(event.occurredAt(), sequenceNumber);
        return after.multi() ? after.derivedFromOperations() : after;
    }

    private static SessionView applyTo(SessionView view, SessionEvent event) {
        if (event instanceof PaymentStartedEvent started) {
            return view.withStatus(SessionStatus.IN_PROGRESS)
                    .withPaymentAdded(PaymentView.started(started.paymentId().value(), started.payment(),
                            started.occurredAt()));
        }
        if (event instanceof PaymentReadyToConfirmEvent ready) {
            return view.withNextAction(NextAction.CONFIRM)
                    .withPayment(ready.paymentId().value(), p -> p.inState(OperationState.AWAITING_CONFIRMATION));
        }
        if (event instanceof PaymentConfirmedEvent confirmed) {
            return view.withNextAction(null)
                    .withConfirmedAt(confirmed.occurredAt())
                    .withPayment(confirmed.paymentId().value(), p -> p.inState(OperationState.PROCESSING));
        }
        if (event instanceof PaymentActionRequiredEvent action) {
            return afterError(view).withPayment(action.paymentId().value(), p -> p.awaitingPayer(action.interaction()));
        }
        if (event instanceof PaymentOutcomeUnknownEvent unknown) {
            // still unknown after the error: it stays in error (not final) until the rail answers
            return view.withPayment(unknown.paymentId().value(), p -> p.state() == OperationState.ERROR ? p
                    : p.inState(OperationState.OUTCOME_UNKNOWN));
        }
        if (event instanceof PaymentAuthorizedEvent authorized) {
            return afterError(view).withNextAction(NextAction.CAPTURE)
                    .withPayment(authorized.paymentId().value(), p -> p.held(authorized.transactionInfo()));
        }
        if (event instanceof PaymentCaptureRequestedEvent capture) {
            return view.withNextAction(null)
                    .withCapturedAt(capture.occurredAt())
                    .withPayment(capture.paymentId().value(), p -> p.capturing(capture.captureAmount()));
        }
        if (event instanceof RecurrentTokenGrantedEvent granted) {
            return view.withPayment(granted.paymentId().value(), p -> p.withRecurrent(granted.token(),
                    granted.occurredAt()));
        }
        if (event instanceof RecurrentTokenFinishedEvent finished) {
            return view.withPayment(finished.paymentId().value(), p -> p.withRecurrentFinished(finished.token(),
                    finished.occurredAt()));
        }
        if (event instanceof PaymentOutcomeOverdueEvent overdue) {
            return view.withStatus(SessionStatus.ERROR)
                    .withError(overdue.sessionError())
                    .withPayment(overdue.paymentId().value(), p -> p.inError(overdue.error()));
        }
        if (event instanceof PayoutOutcomeOverdueEvent overdue) {
            return view.withStatus(SessionStatus.ERROR)
                    .withError(overdue.sessionError())
                    .withPayout(overdue.payoutId().value(), p -> p.inError(overdue.error()));
        }
        if (event instanceof RefundOutcomeOverdueEvent overdue) {
            return view.withPayment(overdue.paymentId().value(), p -> p.withRefund(overdue.refundId().value(),
                    r -> r.inError(overdue.error())));
        }
        if (event instanceof PaymentSucceededEvent succeeded) {
            return view.withStatus(SessionStatus.ACCEPTED)
                    .withError(null)
                    .withNextAction(null)
                    .withPayment(succeeded.paymentId().value(),
                            p -> p.succeeded(succeeded.transactionInfo(), succeeded.capturedAmount(),
                                    succeeded.merchantFee(), succeeded.occurredAt()));
        }
        if (event instanceof PaymentFailedEvent failed) {
            return view.withStatus(SessionStatus.CANCELLED)
                    .withNextAction(null)
                    .withError(failed.sessionError())
                    .withPayment(failed.paymentId().value(), p -> p.failed(failed.error(), failed.occurredAt()));
        }
        if (event instanceof SessionCancelledEvent cancelled) {
            return view.withStatus(SessionStatus.CANCELLED)
                    .withNextAction(null)
                    .withError(cancelled.error())
                    .withEveryPayment(p -> p.state().isFinal() ? p : p.failed(cancelled.error(), cancelled.occurredAt()))
                    .withEveryPayout(p -> p.state().isFinal() ? p : p.failed(cancelled.error(), cancelled.occurredAt()));
        }
        if (event instanceof PayoutStartedEvent started) {
            return view.withStatus(SessionStatus.IN_PROGRESS)
                    .withPayoutAdded(PayoutView.started(started.payoutId().value(), started.payout(),
                            started.occurredAt()));
        }
        if (event instanceof PayoutReadyToConfirmEvent ready) {
            return view.withNextAction(NextAction.CONFIRM)
                    .withPayout(ready.payoutId().value(), p -> p.inState(OperationState.AWAITING_CONFIRMATION));
        }
        if (event instanceof PayoutConfirmedEvent confirmed) {
            return view.withNextAction(null)
                    .withConfirmedAt(confirmed.occurredAt())
                    .withPayout(confirmed.payoutId().value(), p -> p.inState(OperationState.PROCESSING));
        }
        if (event instanceof PayoutOutcomeUnknownEvent unknown) {
            return view.withPayout(unknown.payoutId().value(), p -> p.state() == OperationState.ERROR ? p
                    : p.inState(OperationState.OUTCOME_UNKNOWN));
        }
        if (event instanceof PayoutSucceededEvent succeeded) {
            return view.withStatus(SessionStatus.ACCEPTED)
                    .withError(null)
                    .withPayout(succeeded.payoutId().value(),
                            p -> p.succeeded(succeeded.transactionInfo(), succeeded.occurredAt()));
        }
        if (event instanceof PayoutFailedEvent failed) {
            return view.withStatus(SessionStatus.CANCELLED)
                    .withNextAction(null)
                    .withError(failed.sessionError())
                    .withPayout(failed.payoutId().value(), p -> p.failed(failed.error(), failed.occurredAt()));
        }
        if (event instanceof RefundRequestedEvent refund) {
            return view.withStatus(SessionStatus.ACCEPTED)
                    .withPayment(refund.paymentId().value(), p -> p.withRefundAdded(new RefundView(
                            refund.refundId().value(), RefundState.IN_PROGRESS, refund.occurredAt(), null,
                            refund.amount(), refund.metadata(), null)));
        }
        if (event instanceof ChargebackOpenedEvent chargeback) {
            return view.withStatus(SessionStatus.ACCEPTED)
                    .withPayment(chargeback.paymentId().value(), p -> p.withRefundAdded(new RefundView(
                            chargeback.refundId().value(), RefundState.IN_PROGRESS, chargeback.occurredAt(), null,
                            chargeback.amount(), null, null, true)));
        }
        if (event instanceof PersonalDataErasedEvent) {
            // what a replay reads from the erased events: every personal leaf is the placeholder
            return view.withEveryPayment(PaymentView::erased).withEveryPayout(PayoutView::erased);
        }
        if (event instanceof RefundAcceptedEvent accepted) {
            return view.withStatus(SessionStatus.ACCEPTED).withPayment(accepted.paymentId().value(), p -> p.withRefund(
                    accepted.refundId().value(), r -> r.finished(RefundState.ACCEPTED, null, accepted.occurredAt())));
        }
        if (event instanceof RefundDeclinedEvent declined) {
            return view.withStatus(SessionStatus.ACCEPTED).withPayment(declined.paymentId().value(), p -> p.withRefund(
                    declined.refundId().value(),
                    r -> r.finished(RefundState.DECLINED, declined.reason(), declined.occurredAt())));
        }
        return view;
    }
}
