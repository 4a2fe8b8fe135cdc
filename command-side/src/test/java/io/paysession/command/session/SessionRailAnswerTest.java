package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.PaymentSucceededEvent;
import org.junit.jupiter.api.Test;

class SessionRailAnswerTest extends SessionTestSupport {

    @Test
    void approvalPaysTheFullAmountWithTheMerchantFee() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                // 30 + 10000 * 250 / 10000 = 280
                .expectEvents(new PaymentSucceededEvent(SESSION, PAYMENT, AUTH, AMOUNT, Money.of(280, "rub"), NOW));
    }

    @Test
    void declineFailsThePaymentAndCancelsTheSession() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .when(answer(new AuthorizationOutcome.Declined(
                        ErrorDetails.of(ErrorCode.INSUFFICIENT_FUNDS, "Insufficient funds on the card"))))
                .expectEvents(failed(ErrorCode.INSUFFICIENT_FUNDS, "Insufficient funds on the card"));
    }

    @Test
    void anAnswerBeforeConfirmationIsRefused() {
        fixture.given(created(), started(), readyToConfirm())
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aRepeatedAnswerChangesNothing() {
        fixture.given(paid())
                .when(answer(new AuthorizationOutcome.Declined(
                        ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "late"))))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void confirmAfterTheSessionIsAcceptedIsRefused() {
        fixture.given(paid())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }
}
