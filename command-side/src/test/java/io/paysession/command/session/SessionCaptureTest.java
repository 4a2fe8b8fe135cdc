package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.TransactionInfo;
import org.junit.jupiter.api.Test;

import java.time.Duration;

class SessionCaptureTest extends SessionTestSupport {

    @Test
    void anAuthorizationOfADelayedCapturePartnerHoldsTheMoneyForFiveDays() {
        fixture.given(created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED))
                .when(answer(new AuthorizationOutcome.Held(AUTH)))
                .expectEvents(new PaymentAuthorizedEvent(SESSION, PAYMENT, AUTH, NOW))
                .expectScheduledDeadlineWithName(Duration.ofDays(5), Session.CAPTURE_TIMEOUT);
    }

    @Test
    void captureWithoutAmountDebitsTheWholeHold() {
        fixture.given(held())
                .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                .expectEvents(new PaymentCaptureRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, NOW));
    }

    @Test
    void aPartialCaptureDebitsLessAndTheFeeFollowsTheCapturedAmount() {
        Money part = Money.of(4_000, "rub");
        fixture.given(held())
                .andGivenCommands(new CaptureSessionCommand(SESSION, PROJECT, part))
                .when(new RecordPaymentCaptureCommand(SESSION, PAYMENT, new TransactionInfo(null, null, null)))
                // 30 + 4000 * 250 / 10000 = 130
                .expectEvents(new PaymentSucceededEvent(SESSION, PAYMENT, new TransactionInfo(null, null, null),
                        part, Money.of(130, "rub"), NOW));
    }

    @Test
    void aCaptureAboveTheHoldIsRefused() {
        fixture.given(held())
                .when(new CaptureSessionCommand(SESSION, PROJECT, Money.of(10_001, "rub")))
                .expectException(refusedWith(ErrorCode.CAPTURE_AMOUNT_TOO_LARGE))
                .expectNoEvents();
    }

    @Test
    void aCaptureOfNothingIsRefused() {
        fixture.given(held())
                .when(new CaptureSessionCommand(SESSION, PROJECT, Money.of(0, "rub")))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectNoEvents();
    }

    @Test
    void aCaptureInAnotherCurrencyIsRefused() {
        fixture.given(held())
                .when(new CaptureSessionCommand(SESSION, PROJECT, Money.of(100, "usd")))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectNoEvents();
    }

    @Test
    void aCaptureOfAPaymentNotHeldIsRefused() {
        fixture.given(paid())
                .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aSecondCaptureIsRefused() {
        fixture.given(held())
                .andGivenCommands(new CaptureSessionCommand(SESSION, PROJECT, null))
                .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aCaptureByAnotherProjectIsRefused() {
        fixture.given(held())
                .when(new CaptureSessionCommand(SESSION, "intruder", null))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
    }

    @Test
    void withoutCaptureInTimeTheHoldIsReleasedAndTheSessionCancelled() {
        fixture.given(created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED))
                .andGivenCommands(answer(new AuthorizationOutcome.Held(AUTH)))
                .whenTimeElapses(Duration.ofDays(5))
                .expectEvents(new PaymentHoldReleasedEvent(SESSION, PAYMENT, order(CARD, DELAYED), NOW),
                        new SessionCancelledEvent(SESSION, ErrorDetails.of(ErrorCode.CAPTURE_TIMEOUT,
                                "The partner did not capture in time; the hold is released"), NOW));
    }

    @Test
    void aCapturedPaymentIgnoresItsCaptureDeadline() {
        fixture.given(created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED))
                .andGivenCommands(answer(new AuthorizationOutcome.Held(AUTH)),
                        new CaptureSessionCommand(SESSION, PROJECT, null))
                .whenTimeElapses(Duration.ofDays(6))
                .expectNoEvents();
    }
}
