package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.SessionLimits;
import io.paysession.api.session.TransactionInfo;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

class SessionRefundTest extends SessionTestSupport {

    @Test
    void aRefundWithoutAmountReturnsEverythingCaptured() {
        fixture.given(paid())
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, null, null))
                .expectEvents(refund(REFUND, 10_000));
    }

    @Test
    void partialRefundsAddUpToTheCapturedAmountAndNoFurther() {
        fixture.given(paid())
                .andGivenCommands(new RefundSessionCommand(SESSION, RefundId.of("rf_1"), PROJECT,
                                Money.of(6_000, "rub"), null),
                        new RecordRefundOutcomeCommand(SESSION, RefundId.of("rf_1"), true, null),
                        new RefundSessionCommand(SESSION, RefundId.of("rf_2"), PROJECT, Money.of(3_000, "rub"), null))
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, Money.of(1_001, "rub"), null))
                .expectException(refusedWith(ErrorCode.REFUND_AMOUNT_TOO_LARGE))
                .expectNoEvents();
    }

    @Test
    void theLastPartOfTheCapturedAmountCanBeRefunded() {
        fixture.given(paid())
                .andGivenCommands(new RefundSessionCommand(SESSION, RefundId.of("rf_1"), PROJECT,
                        Money.of(6_000, "rub"), null))
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, null, null))
                .expectEvents(refund(REFUND, 4_000));
    }

    @Test
    void aDeclinedRefundMayBeRequestedAgain() {
        fixture.given(paid())
                .andGivenCommands(new RefundSessionCommand(SESSION, RefundId.of("rf_1"), PROJECT, null, null),
                        new RecordRefundOutcomeCommand(SESSION, RefundId.of("rf_1"), false,
                                ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "no")))
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, null, null))
                .expectEvents(refund(REFUND, 10_000));
    }

    @Test
    void aRefundIdIsUsedOnce() {
        fixture.given(paid()).andGiven(refund(REFUND, 500))
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, Money.of(500, "rub"), null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void theRailsAnswerFinishesTheRefund() {
        fixture.given(paid()).andGiven(refund(REFUND, 500))
                .when(new RecordRefundOutcomeCommand(SESSION, REFUND, true, null))
                .expectEvents(new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, NOW));
    }

    @Test
    void aDeclineOfTheRailFinishesTheRefundDeclined() {
        ErrorDetails reason = ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "The issuer bank refused the refund");
        fixture.given(paid()).andGiven(refund(REFUND, 500))
                .when(new RecordRefundOutcomeCommand(SESSION, REFUND, false, reason))
                .expectEvents(new RefundDeclinedEvent(SESSION, PAYMENT, REFUND, reason, NOW));
    }

    @Test
    void aRepeatedAnswerAboutAFinishedRefundIsRefused() {
        fixture.given(paid()).andGiven(refund(REFUND, 500), new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, NOW))
                .when(new RecordRefundOutcomeCommand(SESSION, REFUND, true, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void onlyAPaidPaymentCanBeRefunded() {
        fixture.given(created(), started(), readyToConfirm())
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, null, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aRefundInAnotherCurrencyIsRefused() {
        fixture.given(paid())
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, Money.of(100, "eur"), null))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectNoEvents();
    }

    @Test
    void aRefundByAnotherProjectIsRefused() {
        fixture.given(paid())
                .when(new RefundSessionCommand(SESSION, REFUND, "intruder", null, null))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
    }

    @Test
    void aPaymentTakesAtMostOneHundredRefundsWhateverTheirOutcome() {
        List<Object> hundred = new ArrayList<>();
        for (int i = 0; i < SessionLimits.MAX_REFUNDS_PER_PAYMENT; i++) {
            RefundId id = RefundId.of("rf_" + (1_000 + i));
            hundred.add(refund(id, 1));
            hundred.add(i % 2 == 0 ? new RefundAcceptedEvent(SESSION, PAYMENT, id, NOW)
                    : new RefundDeclinedEvent(SESSION, PAYMENT, id, ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK,
                    "no"), NOW));
        }
        fixture.given(paid()).andGiven(hundred.subList(0, hundred.size() - 2))
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, Money.of(1, "rub"), null))
                .expectEvents(refund(REFUND, 1));
        fixture.given(paid()).andGiven(hundred)
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, Money.of(1, "rub"), null))
                .expectException(refusedWith(ErrorCode.REFUND_LIMIT_EXCEEDED))
                .expectNoEvents();
    }

    @Test
    void aPartiallyCapturedPaymentRefundsAtMostTheCapturedAmount() {
        fixture.given(held())
                .andGivenCommands(new CaptureSessionCommand(SESSION, PROJECT, Money.of(4_000, "rub")),
                        new RecordPaymentCaptureCommand(SESSION, PAYMENT, new TransactionInfo(null, null, null)))
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, Money.of(4_001, "rub"), null))
                .expectException(refusedWith(ErrorCode.REFUND_AMOUNT_TOO_LARGE))
                .expectNoEvents();
    }
}
