package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;

class SessionConfirmationTest extends SessionTestSupport {

    @Test
    void passedPrecheckAsksThePartnerToConfirmWithinTheConfirmationWindow() {
        fixture.given(created(), started())
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT))
                .expectEvents(readyToConfirm())
                .expectScheduledDeadlineWithName(Duration.ofMinutes(240), Session.CONFIRM_TIMEOUT);
    }

    @Test
    void aQrApplicationPaymentMustBeConfirmedWithinTwentyMinutes() {
        fixture.given(created(), started(new QrAppMethod("79261234567", "mobile_web"), AUTO))
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(20), Session.CONFIRM_TIMEOUT);
    }

    @Test
    void refusedPrecheckFailsThePaymentAndCancelsTheSession() {
        fixture.given(created(), started())
                .when(new RefusePaymentCommand(SESSION, PAYMENT,
                        ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED, "The card expired")))
                .expectEvents(failed(ErrorCode.BANK_CARD_EXPIRED, "The card expired"));
    }

    @Test
    void aPrecheckAnswerForAnotherPaymentIsRefused() {
        fixture.given(created(), started())
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PaymentId.of("pm_99")))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aRepeatedPrecheckAnswerIsRefusedAsWrongState() {
        fixture.given(created(), started(), readyToConfirm())
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void confirmSendsThePaymentToItsRailWithTheOrder() {
        fixture.given(created(), started(), readyToConfirm())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectEvents(confirmed());
    }

    @Test
    void confirmBeforeReadyToConfirmIsRefused() {
        fixture.given(created(), started())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectExceptionMessage(
                        "session/confirm is not allowed while the session is in_progress and its payment is in_progress")
                .expectNoEvents();
    }

    @Test
    void confirmOfACreatedSessionIsRefused() {
        fixture.given(created())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aSecondConfirmIsRefused() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void confirmByAnotherProjectIsRefused() {
        fixture.given(created(), started(), readyToConfirm())
                .when(new ConfirmSessionCommand(SESSION, "intruder"))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
    }

    @Test
    void withoutConfirmationInTimeTheSessionIsCancelled() {
        fixture.given(created(), started())
                .andGivenCommands(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT))
                .whenTimeElapses(Duration.ofMinutes(240))
                .expectEvents(new SessionCancelledEvent(SESSION,
                        ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "The partner did not confirm in time"), NOW));
    }

    @Test
    void aConfirmedPaymentIgnoresItsConfirmationDeadline() {
        fixture.given(created(), started())
                .andGivenCommands(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT),
                        new ConfirmSessionCommand(SESSION, PROJECT))
                .whenTimeElapses(Duration.ofMinutes(241))
                .expectNoEvents();
    }
}
