package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureOutcomeUnknownEvent;
import io.paysession.api.session.PaymentCaptureQueryRequestedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RefundOutcomeQueryRequestedEvent;
import io.paysession.api.session.RefundOutcomeUnknownEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundSessionCommand;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/** A capture's or a refund's answer that never came: kept in progress, queried with back-off, never re-sent. */
class SessionLostAnswerTest extends SessionTestSupport {

    private final ErrorDetails timeout = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer");

    private Object[] captureRequested() {
        return new Object[]{created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED),
                new PaymentAuthorizedEvent(SESSION, PAYMENT, AUTH, NOW),
                new PaymentCaptureRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, NOW)};
    }

    @Test
    void aCaptureWhoseAnswerIsLostStaysCapturingAndIsQueriedLater() {
        fixture.given(captureRequested())
                .when(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                .expectEvents(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW))
                .expectScheduledDeadlineWithName(Duration.ofSeconds(30), Session.OUTCOME_QUERY);
    }

    @Test
    void whenTheCaptureQueryIsDueTheRailIsAskedAboutTheCapturedAmount() {
        fixture.given(captureRequested())
                .andGivenCommands(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                .whenTimeElapses(Duration.ofSeconds(30))
                .expectEvents(new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT,
                        1, NOW));
    }

    @Test
    void aCaptureStillUnknownIsAskedAgainAfterTwiceTheWait() {
        fixture.given(captureRequested())
                .andGiven(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW),
                        new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, 1, NOW))
                .when(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                .expectEvents(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 1, NOW))
                .expectScheduledDeadlineWithName(Duration.ofSeconds(60), Session.OUTCOME_QUERY);
    }

    @Test
    void theAnswerToTheCaptureQueryFinishesThePayment() {
        fixture.given(captureRequested())
                .andGiven(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW),
                        new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, 1, NOW))
                .when(new RecordPaymentCaptureCommand(SESSION, PAYMENT, AUTH))
                .expectEvents(succeeded(AMOUNT));
    }

    @Test
    void aLostCaptureAnswerOfAPaymentNotCapturingIsRefused() {
        fixture.given(held())
                .when(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aRefundWhoseAnswerIsLostStaysInProgressAndIsQueriedLater() {
        fixture.given(paid()).andGiven(refund(REFUND, 4_000))
                .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                .expectEvents(new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW))
                .expectScheduledDeadlineWithName(Duration.ofSeconds(30), Session.REFUND_OUTCOME_QUERY);
    }

    @Test
    void whenTheRefundQueryIsDueTheRailIsAskedAboutThatRefund() {
        fixture.given(paid()).andGiven(refund(REFUND, 4_000))
                .andGivenCommands(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                .whenTimeElapses(Duration.ofSeconds(30))
                .expectEvents(new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                        Money.of(4_000, "rub"), 1, NOW));
    }

    @Test
    void aRefundStillUnknownIsAskedAgainAfterTwiceTheWait() {
        fixture.given(paid()).andGiven(refund(REFUND, 4_000),
                        new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW),
                        new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                                Money.of(4_000, "rub"), 1, NOW))
                .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                .expectEvents(new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 1, NOW))
                .expectScheduledDeadlineWithName(Duration.ofSeconds(60), Session.REFUND_OUTCOME_QUERY);
    }

    @Test
    void aRefundOfUnknownOutcomeStillCountsAgainstWhatIsLeftToRefund() {
        fixture.given(paid()).andGiven(refund(REFUND, 4_000),
                        new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW))
                .when(new RefundSessionCommand(SESSION, RefundId.of("rf_4"), PROJECT, Money.of(6_001, "rub"), null))
                .expectException(refusedWith(ErrorCode.REFUND_AMOUNT_TOO_LARGE))
                .expectNoEvents();
    }

    @Test
    void theAnswerToTheRefundQueryFinishesTheRefund() {
        fixture.given(paid()).andGiven(refund(REFUND, 4_000),
                        new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW),
                        new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                                Money.of(4_000, "rub"), 1, NOW))
                .when(new RecordRefundOutcomeCommand(SESSION, REFUND, true, null))
                .expectEvents(new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, NOW));
    }

    @Test
    void aRefundQueryDueAfterTheRefundFinishedAsksNothing() {
        fixture.given(paid()).andGiven(refund(REFUND, 4_000))
                .andGivenCommands(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout),
                        new RecordRefundOutcomeCommand(SESSION, REFUND, true, null))
                .whenTimeElapses(Duration.ofMinutes(5))
                .expectNoEvents();
    }

    @Test
    void aLostRefundAnswerOfARefundNotInProgressIsRefused() {
        fixture.given(paid()).andGiven(refund(REFUND, 500), new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, NOW))
                .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }
}
