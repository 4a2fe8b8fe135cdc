package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RefundOutcomeQueryRequestedEvent;
import io.paysession.api.session.RefundOutcomeUnknownEvent;
import org.axonframework.deadline.DeadlineMessage;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.stream.Stream;

/**
 * The payload of each deadline a session sets, as it is stored with the pending deadline ({@code scheduled_tasks}):
 * the operation (payment, payout or refund) it guards and the stage that operation is in. Sessions live for days
 * with deadlines pending, across releases: if a release counted stages differently or named another id, every
 * pending deadline would be ignored as stale, or act in a stage it was not set for. The stages here are those the
 * aggregate gave before its operations became aggregate members.
 */
class SessionStoredDeadlinesTest extends SessionTestSupport {

    private static final PayoutId PAYOUT = PayoutId.of("po_4");
    private static final ErrorDetails TIMED_OUT = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer");

    @Test
    void theConfirmationLimitOfAPaymentGuardsItsSecondStage() {
        fixture.given(created(), started())
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT))
                .expectScheduledDeadlineMatching(Duration.ofMinutes(240),
                        deadline(Session.CONFIRM_TIMEOUT, new StageDeadline("pm_7", 2)));
    }

    @Test
    void theCaptureLimitOfAHeldPaymentGuardsItsFourthStage() {
        fixture.given(created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED))
                .when(answer(new AuthorizationOutcome.Held(AUTH)))
                .expectScheduledDeadlineMatching(Duration.ofDays(5),
                        deadline(Session.CAPTURE_TIMEOUT, new StageDeadline("pm_7", 4)));
    }

    @Test
    void aQueryOfTheRailKeepsTheStageAndTheNextLostAnswerStartsANewOne() {
        fixture.given(created(), started(), readyToConfirm(), confirmed(),
                        new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, TIMED_OUT, 0, NOW),
                        new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, order(CARD, AUTO), 1, NOW))
                .when(answer(new AuthorizationOutcome.Unknown(TIMED_OUT)))
                .expectScheduledDeadlineMatching(Duration.ofSeconds(60),
                        deadline(Session.OUTCOME_QUERY, new StageDeadline("pm_7", 5)));
    }

    @Test
    void theConfirmationLimitOfAPayoutGuardsItsSecondStage() {
        PayoutData payout = new PayoutData(new PayoutMethod.Card("bank_card", "card_77", "mir", "220000", "0004"),
                Money.of(150_000, "rub"), null, JsonNodeFactory.instance.objectNode().set("recipient",
                JsonNodeFactory.instance.objectNode().put("full_name", "Ivan Ivanov")), null);
        fixture.given(created(), new PayoutStartedEvent(SESSION, PAYOUT, payout, NOW))
                .when(new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT))
                .expectScheduledDeadlineMatching(Duration.ofMinutes(240),
                        deadline(Session.CONFIRM_TIMEOUT, new StageDeadline("po_4", 2)));
    }

    @Test
    void aRefundsQueriesCountTheirOwnStagesUnderTheRefundsId() {
        fixture.given(Stream.concat(Stream.of(paid()), Stream.of(refund(REFUND, 4_000))).toList())
                .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, TIMED_OUT))
                .expectScheduledDeadlineMatching(Duration.ofSeconds(30),
                        deadline(Session.REFUND_OUTCOME_QUERY, new StageDeadline("rf_3", 1)));
    }

    @Test
    void aRefundsSecondLostAnswerIsItsSecondStage() {
        fixture.given(Stream.concat(Stream.of(paid()), Stream.of(refund(REFUND, 4_000),
                                new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, TIMED_OUT, 0, NOW),
                                new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                                        Money.of(4_000, "rub"), 1, NOW)))
                        .toList())
                .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, TIMED_OUT))
                .expectScheduledDeadlineMatching(Duration.ofSeconds(60),
                        deadline(Session.REFUND_OUTCOME_QUERY, new StageDeadline("rf_3", 2)));
    }

    private static Matcher<DeadlineMessage<?>> deadline(String name, StageDeadline payload) {
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(DeadlineMessage<?> item) {
                return name.equals(item.getDeadlineName()) && payload.equals(item.getPayload());
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("the deadline " + name + " with " + payload);
            }
        };
    }
}
