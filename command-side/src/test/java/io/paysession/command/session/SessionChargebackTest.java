package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.money.Money;
import io.paysession.api.session.ChargebackOpenedEvent;
import io.paysession.api.session.OpenChargebackCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundSessionCommand;
import org.junit.jupiter.api.Test;

/**
 * Chargebacks: refunds the payer's bank takes, of a paid payment, within what is left of it; opened in progress
 * until the acquirer withholds the money, or accepted at once when the operator records one already withheld.
 */
class SessionChargebackTest extends SessionTestSupport {

    private static final RefundId CHARGEBACK = RefundId.of("rf_9");

    @Test
    void aChargebackWithoutAmountTakesAllThatIsLeftAndIsInProgressUntilWithheld() {
        fixture.given(paid())
                .when(new OpenChargebackCommand(SESSION, CHARGEBACK, null, null, "fraud", false))
                .expectEvents(new ChargebackOpenedEvent(SESSION, PAYMENT, CHARGEBACK, Money.of(10_000, "rub"),
                        "fraud", NOW));
        fixture.given(paid())
                .andGiven(new ChargebackOpenedEvent(SESSION, PAYMENT, CHARGEBACK, Money.of(10_000, "rub"), "fraud",
                        NOW))
                .when(new RecordRefundOutcomeCommand(SESSION, CHARGEBACK, true, null))
                .expectEvents(new RefundAcceptedEvent(SESSION, PAYMENT, CHARGEBACK, NOW));
    }

    @Test
    void theOperatorRecordsAChargebackAlreadyWithheldInOneStep() {
        fixture.given(paid())
                .when(new OpenChargebackCommand(SESSION, CHARGEBACK, null, Money.of(3_000, "rub"), "reported", true))
                .expectEvents(new ChargebackOpenedEvent(SESSION, PAYMENT, CHARGEBACK, Money.of(3_000, "rub"),
                                "reported", NOW),
                        new RefundAcceptedEvent(SESSION, PAYMENT, CHARGEBACK, NOW));
    }

    @Test
    void aChargebackCountsAgainstWhatIsLeftToRefundAndTheOtherWayRound() {
        fixture.given(paid())
                .andGiven(new ChargebackOpenedEvent(SESSION, PAYMENT, CHARGEBACK, Money.of(6_000, "rub"), null, NOW))
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, Money.of(4_001, "rub"), null))
                .expectException(refusedWith(ErrorCode.REFUND_AMOUNT_TOO_LARGE))
                .expectNoEvents();
        fixture.given(paid())
                .andGiven(refund(REFUND, 10_000))
                .when(new OpenChargebackCommand(SESSION, CHARGEBACK, null, null, null, false))
                .expectException(refusedWith(ErrorCode.REFUND_AMOUNT_TOO_LARGE))
                .expectNoEvents();
    }

    @Test
    void onlyAPaidPaymentOfTheAskingProjectIsChargedBack() {
        fixture.given(created(), started(), readyToConfirm(), confirmed())
                .when(new OpenChargebackCommand(SESSION, CHARGEBACK, null, null, null, false))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
        fixture.given(paid())
                .when(new OpenChargebackCommand(SESSION, CHARGEBACK, "another", null, null, false))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
        fixture.given(paid())
                .andGiven(new ChargebackOpenedEvent(SESSION, PAYMENT, CHARGEBACK, Money.of(1_000, "rub"), null, NOW))
                .when(new OpenChargebackCommand(SESSION, CHARGEBACK, null, null, null, false))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }
}
