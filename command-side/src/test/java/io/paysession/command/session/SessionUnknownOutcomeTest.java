package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;

class SessionUnknownOutcomeTest extends SessionTestSupport {

    private final ErrorDetails timeout = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer");

    @Test
    void anUnansweredAuthorizationLeavesTheOutcomeUnknownAndAsksAgainLater() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .when(answer(new AuthorizationOutcome.Unknown(timeout)))
                .expectEvents(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW))
                .expectScheduledDeadlineWithName(Duration.ofSeconds(30), Session.OUTCOME_QUERY);
    }

    @Test
    void whenTheQueryIsDueTheRailIsAskedAgain() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .andGivenCommands(answer(new AuthorizationOutcome.Unknown(timeout)))
                .whenTimeElapses(Duration.ofSeconds(30))
                .expectEvents(new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, order(CARD, AUTO), 1, NOW));
    }

    @Test
    void aStillUnknownOutcomeIsAskedAgainAfterTwiceTheWait() {
        fixture.given(created(), started(), readyToConfirm(), confirmed(),
                        new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW),
                        new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, order(CARD, AUTO), 1, NOW))
                .when(answer(new AuthorizationOutcome.Unknown(timeout)))
                .expectEvents(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 1, NOW))
                .expectScheduledDeadlineWithName(Duration.ofSeconds(60), Session.OUTCOME_QUERY);
    }

    @Test
    void theAnswerToTheQueryFinishesThePayment() {
        fixture.given(created(), started(), readyToConfirm(), confirmed(),
                        new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW),
                        new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, order(CARD, AUTO), 1, NOW))
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                .expectEvents(succeeded(AMOUNT));
    }

    @Test
    void aPartnerCannotCancelAPaymentOfUnknownOutcome() {
        fixture.given(created(), started(), readyToConfirm(), confirmed(),
                        new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW))
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }
}
