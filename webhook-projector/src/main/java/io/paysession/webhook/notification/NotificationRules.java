package io.paysession.webhook.notification;

import io.paysession.api.session.ChargebackOpenedEvent;
import io.paysession.api.session.NextAction;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentOutcomeOverdueEvent;
import io.paysession.api.session.PayoutOutcomeOverdueEvent;
import io.paysession.api.session.RefundOutcomeOverdueEvent;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutReadyToConfirmEvent;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Which webhook, if any, a session event gives. A rule sees the session just before and just after the
 * event, so it can tell what the event changed. The first matching rule wins; a new webhook is one more
 * line in {@link #RULES}.
 */
public final class NotificationRules {

    private static final List<Rule> RULES = List.of(
            Rule.on(PaymentReadyToConfirmEvent.class, WebhookType.READY_TO_CONFIRM, NotificationRules::allWaitToBeConfirmed),
            Rule.on(PayoutReadyToConfirmEvent.class, WebhookType.READY_TO_CONFIRM, NotificationRules::allWaitToBeConfirmed),
            Rule.on(PayoutSucceededEvent.class, WebhookType.PAYMENT_FINISHED, NotificationRules::allEnded),
            Rule.on(PayoutFailedEvent.class, WebhookType.PAYMENT_FINISHED, NotificationRules::allEnded),
            Rule.on(PaymentActionRequiredEvent.class, WebhookType.ACTION_REQUIRED),
            Rule.on(PaymentAuthorizedEvent.class, WebhookType.READY_TO_CAPTURE),
            Rule.on(ChargebackOpenedEvent.class, WebhookType.PAYMENT_REFUNDED),
            Rule.on(RefundAcceptedEvent.class, WebhookType.PAYMENT_REFUNDED),
            Rule.on(RefundDeclinedEvent.class, WebhookType.PAYMENT_REFUNDED),
            Rule.on(PaymentSucceededEvent.class, WebhookType.PAYMENT_FINISHED, NotificationRules::allEnded),
            Rule.on(PaymentFailedEvent.class, WebhookType.PAYMENT_FINISHED, NotificationRules::allEnded),
            Rule.on(PaymentOutcomeOverdueEvent.class, WebhookType.PAYMENT_FINISHED, NotificationRules::allEnded),
            Rule.on(PayoutOutcomeOverdueEvent.class, WebhookType.PAYMENT_FINISHED, NotificationRules::allEnded),
            Rule.on(RefundOutcomeOverdueEvent.class, WebhookType.PAYMENT_REFUNDED),
            Rule.on(SessionCancelledEvent.class, WebhookType.PAYMENT_FINISHED,
                    (before, after) -> failedAnUnfinishedOperation(before, after) && allEnded(before, after)));

    private NotificationRules() {
    }

    /** Whether any rule looks at this kind of event; if not, the session need not be folded at all. */
    public static boolean mayNotifyOn(SessionEvent event) {
        return RULES.stream().anyMatch(rule -> rule.eventType().isInstance(event));
    }

    /**
     * The webhook that {@code event} gives, given the session {@code before} it ({@code null} before the
     * first event) and {@code after} it.
     */
    public static Optional<WebhookType> typeFor(SessionEvent event, SessionView before, SessionView after) {
        Objects.requireNonNull(after, "after");
        return RULES.stream()
                .filter(rule -> rule.eventType().isInstance(event) && rule.when().test(before, after))
                .map(Rule::type)
                .findFirst();
    }

    /**
     * {@code ready_to_confirm} asks for the session's one confirmation: a multi-session's once all its operations wait
     * for it (the view's {@code next_action}); a session of one operation's at once.
     */
    private static boolean allWaitToBeConfirmed(SessionView before, SessionView after) {
        return after.nextAction() == NextAction.CONFIRM;
    }

    /**
     * {@code payment_finished} tells how the session ended: a multi-session's once every operation has ended (or is in
     * {@code error}, which is told as an end that is not final), showing them all; a session of one operation's at once.
     */
    private static boolean allEnded(SessionView before, SessionView after) {
        return after.payments().stream().allMatch(payment -> told(payment.state()))
                && after.payouts().stream().allMatch(payout -> told(payout.state()));
    }

    private static boolean told(OperationState state) {
        return state.isFinal() || state == OperationState.ERROR;
    }

    /** Cancelling a session in which nothing was running is not news to the partner, who asked for it. */
    private static boolean failedAnUnfinishedOperation(SessionView before, SessionView after) {
        if (before == null) {
            return false;
        }
        boolean payment = before.payments().stream()
                .filter(earlier -> !earlier.state().isFinal())
                .anyMatch(earlier -> after.payment(earlier.id())
                        .map(now -> now.state() == OperationState.FAILED)
                        .orElse(false));
        boolean payout = before.payouts().stream()
                .filter(earlier -> !earlier.state().isFinal())
                .anyMatch(earlier -> after.payout(earlier.id())
                        .map(now -> now.state() == OperationState.FAILED)
                        .orElse(false));
        return payment || payout;
    }

    private record Rule(Class<? extends SessionEvent> eventType, WebhookType type, BiPredicate<SessionView, SessionView> when) {

        static Rule on(Class<? extends SessionEvent> eventType, WebhookType type) {
            return new Rule(eventType, type, (before, after) -> true);
        }

        static Rule on(Class<? extends SessionEvent> eventType, WebhookType type, BiPredicate<SessionView, SessionView> when) {
            return new Rule(eventType, type, when);
        }
    }
}
