package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.WalletMethod;
import org.junit.jupiter.api.Test;

import java.time.Duration;

class SessionPayerActionTest extends SessionTestSupport {

    @Test
    void aChallengeWaitsForThePayerForAnHour() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .when(answer(new AuthorizationOutcome.PayerActionRequired(CHALLENGE)))
                .expectEvents(new PaymentActionRequiredEvent(SESSION, PAYMENT, CHALLENGE, NOW))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(60), Session.PAYER_ACTION_TIMEOUT);
    }

    @Test
    void aWalletPayerHasTwentyMinutes() {
        fixture.given(created(), started(new WalletMethod(), AUTO), readyToConfirm(),
                        confirmed(new WalletMethod(), AUTO))
                .when(answer(new AuthorizationOutcome.PayerActionRequired(CHALLENGE)))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(20), Session.PAYER_ACTION_TIMEOUT);
    }

    @Test
    void thePayersApprovalPaysThePayment() {
        fixture.given(created(), started(), readyToConfirm(), confirmed(),
                        new PaymentActionRequiredEvent(SESSION, PAYMENT, CHALLENGE, NOW))
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                .expectEvents(succeeded(AMOUNT));
    }

    @Test
    void aFailedChallengeFailsThePaymentWith3dsError() {
        fixture.given(created(), started(), readyToConfirm(), confirmed(),
                        new PaymentActionRequiredEvent(SESSION, PAYMENT, CHALLENGE, NOW))
                .when(answer(new AuthorizationOutcome.Declined(
                        ErrorDetails.of(ErrorCode.THREE_DS_ERROR, "3-D Secure failed"))))
                .expectEvents(failed(ErrorCode.THREE_DS_ERROR, "3-D Secure failed"));
    }

    @Test
    void withoutThePayerInTimeACardPaymentFailsWithActionTimeout() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .andGivenCommands(answer(new AuthorizationOutcome.PayerActionRequired(CHALLENGE)))
                .whenTimeElapses(Duration.ofMinutes(60))
                .expectEvents(failed(ErrorCode.ACTION_TIMEOUT, "The payer did not act in time"));
    }

    @Test
    void anExpiredQrCodeFailsWithQrExpired() {
        PaymentMethod fps = new FasterPaymentMethod("tea");
        fixture.given(created(), started(fps, AUTO), readyToConfirm(), confirmed(fps, AUTO))
                .andGivenCommands(answer(new AuthorizationOutcome.PayerActionRequired(
                        new CustomerInteraction.InformQr("https://pay.example/qr"))))
                .whenTimeElapses(Duration.ofMinutes(60))
                .expectEvents(failed(ErrorCode.QR_EXPIRED, "The payment QR code expired"));
    }

    @Test
    void theActionDeadlineOfAPaidPaymentChangesNothing() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .andGivenCommands(answer(new AuthorizationOutcome.PayerActionRequired(CHALLENGE)),
                        answer(new AuthorizationOutcome.Approved(AUTH)))
                .whenTimeElapses(Duration.ofMinutes(61))
                .expectNoEvents();
    }
}
