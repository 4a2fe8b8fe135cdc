package io.paysession.command.session;

import io.paysession.api.money.Money;
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
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.view.PaymentView;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import static io.paysession.api.session.OperationState.AWAITING_CAPTURE;
import static io.paysession.api.session.OperationState.AWAITING_CONFIRMATION;
import static io.paysession.api.session.OperationState.AWAITING_PAYER_ACTION;
import static io.paysession.api.session.OperationState.CAPTURING;
import static io.paysession.api.session.OperationState.FAILED;
import static io.paysession.api.session.OperationState.IN_PROGRESS;
import static io.paysession.api.session.OperationState.ERROR;
import static io.paysession.api.session.OperationState.OUTCOME_UNKNOWN;
import static io.paysession.api.session.OperationState.PROCESSING;
import static io.paysession.api.session.OperationState.SUCCEEDED;

/**
 * What a session's event stream says, read one event at a time, and the invariants every prefix of it keeps.
 * It knows nothing of the aggregate's fields: only the events, {@link SessionViewFold} (what partners see)
 * and {@link SessionLifecycle}'s table. A broken invariant is an {@link AssertionError} naming it:
 * <ul>
 *   <li>[amounts] refunded &lt;= captured &lt;= authorized (held) &lt;= the payment's amount, and refunded +
 *   refunds in progress &lt;= captured, all in the payment's currency;</li>
 *   <li>[transitions] each event moves the payment only along a transition of the table, and the state the
 *   fold shows is the state the events imply;</li>
 *   <li>[terminal] exactly one terminal event per finished payment (succeeded, failed, or a cancellation of
 *   the session that fails its unfinished payment): what becomes the one {@code payment_finished}; after it
 *   only refunds come and go;</li>
 *   <li>[time limits] a time limit acts when it is due, not before, and one that has passed has been enforced.</li>
 * </ul>
 */
final class SessionStream {

    private final SessionId sessionId;
    private final SessionTimeLimits limits;

    private SessionView view;
    private long sequence;
    private boolean sessionCancelled;
    private boolean holdJustReleased;

    private PaymentId paymentId;
    private PaymentMethod method;
    private Money amount;
    private OperationState state;
    private Instant enteredAt;
    private int terminalEvents;

    private int queriesAsked;
    private int unknownQueriesMade;
    private Instant unknownAt;
    private boolean queryAskedSinceUnknown;
    /** The last event was an unknown answer after the first series of queries: the next must make it overdue. */
    private boolean overdueExpected;
    private boolean captureUnknown;
    private int captureQueriesAsked;

    private Money authorized;
    private Money captureRequested;
    private Money captured;
    private Money refunded;
    private final Map<RefundId, Money> inFlight = new LinkedHashMap<>();
    private final Set<RefundId> refundIds = new HashSet<>();

    SessionStream(SessionId sessionId, SessionTimeLimits limits) {
        this.sessionId = sessionId;
        this.limits = limits;
    }

    /** Takes the next event of the stream and checks every invariant on the stream so far. */
    void accept(SessionEvent event) {
        check(event.sessionId().equals(sessionId), () -> "[stream] " + event + " is not of " + sessionId);
        check((sequence == 0) == (event instanceof SessionCreatedEvent),
                () -> "[stream] a session's stream starts with its creation, and only there; got " + name(event));
        if (holdJustReleased) {
            check(event instanceof SessionCancelledEvent, () -> "[transitions] a released hold is followed by the "
                    + "cancellation that released it, not by " + name(event));
        }
        check(terminalEvents == 0 || isRefundEvent(event),
                () -> "[terminal] after the payment finished (" + state + ") nothing but refunds may happen; got "
                        + name(event));
        boolean overdueWasExpected = overdueExpected;
        overdueExpected = false;
        check(!overdueWasExpected || event instanceof PaymentOutcomeOverdueEvent, () -> "[transitions] an outcome "
                + "still unknown after the first series of queries is overdue at once; got " + name(event));
        follow(event);
        view = SessionViewFold.apply(view, event, sequence++);
        checkFold(event);
        checkAmounts(event);
        checkTerminal(event);
    }

    private void follow(SessionEvent event) {
        if (event instanceof SessionCreatedEvent) {
            return;
        }
        if (event instanceof PaymentStartedEvent started) {
            check(paymentId == null && !sessionCancelled,
                    () -> "[transitions] a payment starts only in a created session with none");
            paymentId = started.paymentId();
            method = started.payment().method();
            amount = started.payment().amount();
            check(amount.minorUnits() > 0, () -> "[amounts] a payment of " + amount);
            Money zero = new Money(0, amount.currency());
            authorized = zero;
            captured = zero;
            refunded = zero;
            move(event, IN_PROGRESS);
        } else if (event instanceof PaymentReadyToConfirmEvent ready) {
            samePayment(ready.paymentId());
            move(event, AWAITING_CONFIRMATION);
        } else if (event instanceof PaymentConfirmedEvent confirmed) {
            samePayment(confirmed.paymentId());
            check(confirmed.order().amount().equals(amount) && confirmed.order().method().equals(method),
                    () -> "[amounts] the rail is sent " + confirmed.order() + " for a payment of " + amount);
            move(event, PROCESSING);
        } else if (event instanceof PaymentActionRequiredEvent action) {
            samePayment(action.paymentId());
            move(event, AWAITING_PAYER_ACTION);
        } else if (event instanceof PaymentOutcomeUnknownEvent unknown) {
            samePayment(unknown.paymentId());
            check(unknown.queriesMade() == queriesAsked,
                    () -> "[stream] " + name(event) + " counts " + unknown.queriesMade() + " queries, " + queriesAsked
                            + " were asked");
            unknownQueriesMade = unknown.queriesMade();
            unknownAt = unknown.occurredAt();
            queryAskedSinceUnknown = false;
            OperationState after = state == ERROR ? ERROR : OUTCOME_UNKNOWN;
            move(event, after);
            overdueExpected = after == OUTCOME_UNKNOWN && limits.overdueAfter(unknown.queriesMade());
            return;
        } else if (event instanceof PaymentOutcomeOverdueEvent overdue) {
            samePayment(overdue.paymentId());
            check(state == OUTCOME_UNKNOWN && limits.overdueAfter(unknownQueriesMade), () -> "[transitions] an outcome "
                    + "is overdue only when unknown after the first series of queries, not while " + state + " after "
                    + unknownQueriesMade + " queries");
            move(event, ERROR);
        } else if (event instanceof PaymentOutcomeQueryRequestedEvent query) {
            samePayment(query.paymentId());
            check(state == OUTCOME_UNKNOWN || state == ERROR, () -> "[transitions] the rail is queried again only "
                    + "while the outcome is unknown, not while " + state);
            check(query.query() == queriesAsked + 1,
                    () -> "[stream] query " + query.query() + " after " + queriesAsked);
            check(!queryAskedSinceUnknown, () -> "[transitions] the rail is queried again before it answered the "
                    + "last query");
            queriesAsked++;
            queryAskedSinceUnknown = true;
            move(event, state);
        } else if (event instanceof PaymentAuthorizedEvent authorizedEvent) {
            samePayment(authorizedEvent.paymentId());
            authorized = amount;
            move(event, AWAITING_CAPTURE);
        } else if (event instanceof PaymentCaptureRequestedEvent capture) {
            samePayment(capture.paymentId());
            captureRequested = capture.captureAmount();
            check(captureRequested.minorUnits() > 0, () -> "[amounts] a capture of " + captureRequested);
            move(event, CAPTURING);
        } else if (event instanceof PaymentCaptureOutcomeUnknownEvent unknown) {
            samePayment(unknown.paymentId());
            check(state == CAPTURING, () -> "[transitions] a capture's answer is lost while the payment is " + state);
            check(unknown.queriesMade() == captureQueriesAsked,
                    () -> "[stream] " + name(event) + " counts " + unknown.queriesMade() + " queries, "
                            + captureQueriesAsked + " were asked");
            captureUnknown = true;
            unknownQueriesMade = unknown.queriesMade();
            unknownAt = unknown.occurredAt();
            queryAskedSinceUnknown = false;
            move(event, CAPTURING);
        } else if (event instanceof PaymentCaptureQueryRequestedEvent query) {
            samePayment(query.paymentId());
            check(state == CAPTURING && captureUnknown, () -> "[transitions] a capture is queried only while its "
                    + "outcome is unknown, not while " + state);
            check(query.query() == captureQueriesAsked + 1,
                    () -> "[stream] capture query " + query.query() + " after " + captureQueriesAsked);
            check(query.captureAmount().equals(captureRequested),
                    () -> "[amounts] the rail is asked about a capture of " + query.captureAmount() + " where "
                            + captureRequested + " was requested");
            check(!queryAskedSinceUnknown, () -> "[transitions] the rail is asked about the capture again before it "
                    + "answered the last query");
            captureQueriesAsked++;
            queryAskedSinceUnknown = true;
            move(event, CAPTURING);
        } else if (event instanceof PaymentSucceededEvent succeeded) {
            samePayment(succeeded.paymentId());
            captured = succeeded.capturedAmount();
            if (state == CAPTURING) {
                check(captured.equals(captureRequested),
                        () -> "[amounts] captured " + captured + " where " + captureRequested + " was requested");
            } else {
                // approved at once: authorized and captured in one
                authorized = amount;
                check(captured.equals(amount), () -> "[amounts] a payment of " + amount + " paid at once captured "
                        + captured);
            }
            terminalEvents++;
            move(event, SUCCEEDED);
        } else if (event instanceof PaymentFailedEvent failed) {
            samePayment(failed.paymentId());
            terminalEvents++;
            move(event, FAILED);
        } else if (event instanceof PaymentHoldReleasedEvent released) {
            samePayment(released.paymentId());
            check(state == AWAITING_CAPTURE, () -> "[transitions] a hold is released only while it is held, not while "
                    + state);
            holdJustReleased = true;
        } else if (event instanceof SessionCancelledEvent) {
            check(!sessionCancelled, () -> "[transitions] the session is cancelled twice");
            sessionCancelled = true;
            if (state == null) {
                move(event, null);
            } else {
                check(!state.isFinal(), () -> "[transitions] a session whose payment is " + state + " is cancelled");
                check(holdJustReleased == (state == AWAITING_CAPTURE),
                        () -> "[transitions] a held payment's session is cancelled after (only) its hold is released");
                terminalEvents++;
                move(event, FAILED);
            }
            holdJustReleased = false;
        } else if (event instanceof RefundRequestedEvent refund) {
            samePayment(refund.paymentId());
            check(state == SUCCEEDED, () -> "[transitions] a refund is requested while the payment is " + state);
            check(refundIds.add(refund.refundId()),
                    () -> "[stream] refund " + refund.refundId() + " is requested twice");
            check(refund.amount().minorUnits() > 0, () -> "[amounts] a refund of " + refund.amount());
            inFlight.put(refund.refundId(), refund.amount());
            move(event, SUCCEEDED);
        } else if (event instanceof RefundAcceptedEvent accepted) {
            samePayment(accepted.paymentId());
            Money refund = inFlight.remove(accepted.refundId());
            check(refund != null,
                    () -> "[stream] refund " + accepted.refundId() + " is accepted but is not in progress");
            refunded = refunded.plus(refund);
        } else if (event instanceof RefundDeclinedEvent declined) {
            samePayment(declined.paymentId());
            check(inFlight.remove(declined.refundId()) != null,
                    () -> "[stream] refund " + declined.refundId() + " is declined but is not in progress");
        } else {
            throw new AssertionError("[stream] an event this test does not know: " + event);
        }
    }

    /** The payment's state after {@code event}, checked against the table (by any trigger). */
    private void move(SessionEvent event, OperationState to) {
        check(SessionLifecycle.isLegal(state, to), () -> "[transitions] " + name(event) + " moves the payment from "
                + state + " to " + to + ", which the table does not allow");
        if (state != to) {
            enteredAt = event.occurredAt();
        }
        state = to;
    }

    private void checkFold(SessionEvent event) {
        List<PaymentView> payments = view.payments();
        check(payments.size() <= (paymentId == null ? 0 : 1), () -> "[transitions] the view shows " + payments.size()
                + " payments");
        OperationState folded = payments.isEmpty() ? null : payments.get(0).state();
        check(folded == state, () -> "[transitions] after " + name(event) + " the view shows the payment " + folded
                + " but the events say " + state);
    }

    private void checkAmounts(SessionEvent event) {
        if (amount == null) {
            return;
        }
        Money inProgress = inFlight.values().stream().reduce(Money::plus).orElse(new Money(0, amount.currency()));
        List<Money> all = captureRequested == null ? List.of(authorized, captured, refunded, inProgress)
                : List.of(authorized, captured, refunded, inProgress, captureRequested);
        check(all.stream().allMatch(money -> money.sameCurrencyAs(amount)),
                () -> "[amounts] every amount is in the payment's currency " + amount.currencyCode() + ": " + all);
        String after = " after " + name(event);
        check(refunded.minorUnits() <= captured.minorUnits(),
                () -> "[amounts] refunded " + refunded + " > captured " + captured + after);
        check(captured.minorUnits() <= authorized.minorUnits(),
                () -> "[amounts] captured " + captured + " > authorized " + authorized + after);
        check(authorized.minorUnits() <= amount.minorUnits(),
                () -> "[amounts] authorized " + authorized + " > the payment's " + amount + after);
        check(captureRequested == null || captureRequested.minorUnits() <= authorized.minorUnits(),
                () -> "[amounts] a capture of " + captureRequested + " > authorized " + authorized + after);
        check(refunded.minorUnits() + inProgress.minorUnits() <= captured.minorUnits(),
                () -> "[amounts] refunded " + refunded + " + in progress " + inProgress + " > captured " + captured
                        + after);
    }

    private void checkTerminal(SessionEvent event) {
        boolean finished = state != null && state.isFinal();
        check(terminalEvents == (finished ? 1 : 0), () -> "[terminal] " + terminalEvents
                + " terminal events for a payment that is " + state + " after " + name(event));
    }

    /** [time limits]: at {@code now}, nothing still waits for a time limit that has passed. */
    void checkTimeLimits(Instant now) {
        if (state == AWAITING_CONFIRMATION) {
            requireBefore(now, enteredAt, limits.confirmWindow(method), "the confirmation");
        } else if (state == AWAITING_PAYER_ACTION) {
            requireBefore(now, enteredAt, limits.payerActionWindow(method), "the payer");
        } else if (state == AWAITING_CAPTURE) {
            requireBefore(now, enteredAt, limits.capture(), "the capture");
        } else if ((state == OUTCOME_UNKNOWN || state == ERROR || state == CAPTURING && captureUnknown)
                && !queryAskedSinceUnknown) {
            // each unknown answer starts the wait for the next query anew
            requireBefore(now, unknownAt, limits.outcomeQueryDelay(unknownQueriesMade), "the next query of the rail");
        }
    }

    /** [time limits]: a time limit that acts at {@code at} (as {@code trigger}) is due by then, not earlier. */
    void checkDue(SessionLifecycle.Trigger trigger, Instant at) {
        Instant due = switch (trigger) {
            case CONFIRM_TIMEOUT -> enteredAt.plus(limits.confirmWindow(method));
            case PAYER_ACTION_TIMEOUT -> enteredAt.plus(limits.payerActionWindow(method));
            case CAPTURE_TIMEOUT -> enteredAt.plus(limits.capture());
            case OUTCOME_QUERY_DUE -> unknownAt.plus(limits.outcomeQueryDelay(unknownQueriesMade));
            default -> throw new IllegalArgumentException(trigger + " is not a time limit");
        };
        check(!at.isBefore(due),
                () -> "[time limits] " + trigger + " acted at " + at + ", before it was due at " + due);
    }

    private void requireBefore(Instant now, Instant since, Duration limit, String what) {
        check(now.isBefore(since.plus(limit)), () -> "[time limits] at " + now + " the payment still waits for " + what
                + " since " + since + ", past its limit of " + limit);
    }

    private void samePayment(PaymentId reported) {
        check(paymentId != null && paymentId.equals(reported), () -> "[stream] an event of payment " + reported
                + " in a session whose payment is " + paymentId);
    }

    private static boolean isRefundEvent(SessionEvent event) {
        return event instanceof RefundRequestedEvent || event instanceof RefundAcceptedEvent
                || event instanceof RefundDeclinedEvent;
    }

    /** The message is built only when the check fails: the checks run after every event of every run. */
    private static void check(boolean holds, Supplier<String> violation) {
        if (!holds) {
            throw new AssertionError(violation.get());
        }
    }

    static String name(Object event) {
        return event.getClass().getSimpleName();
    }

    /** The payment's state: {@code null} while there is none. */
    OperationState state() {
        return state;
    }

    /** The session's status as the table reads it: its own while there is no payment, else the view's. */
    SessionStatus tableStatus() {
        if (state == null) {
            return sessionCancelled ? SessionStatus.CANCELLED : SessionStatus.CREATED;
        }
        return view.status();
    }

    /** How many events it has taken. */
    int size() {
        return (int) sequence;
    }

    boolean exists() {
        return view != null;
    }

    Money amount() {
        return amount;
    }

    /** What a refund without amount would return now. */
    long leftToRefund() {
        if (captured == null) {
            return 0;
        }
        long inProgress = inFlight.values().stream().mapToLong(Money::minorUnits).sum();
        return captured.minorUnits() - refunded.minorUnits() - inProgress;
    }

    boolean inFlight(RefundId refundId) {
        return inFlight.containsKey(refundId);
    }

    List<RefundId> refundsInFlight() {
        return List.copyOf(inFlight.keySet());
    }
}
