package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.InitMultiSessionCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutReadyToConfirmEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

/**
 * Multi-sessions: several payments and payouts started together, each pre-checked on its own; confirmed and
 * cancelled as a whole (all must wait for it); a refusal at a pre-check cancels the others once every pre-check has
 * answered; the first confirmation time limit cancels all; each confirmed operation then runs on its own; no capture,
 * refund or chargeback names an operation of it.
 */
class SessionMultiTest extends SessionTestSupport {

    private static final PaymentId SECOND = PaymentId.of("pm_8");
    private static final PayoutId PAYOUT = PayoutId.of("po_9");
    private static final PayoutData TO_A_CARD = new PayoutData(new PayoutMethod.Card("bank_card", "card_77", "mir",
            "220000", "0004"), Money.of(5_000, "rub"), null, JsonNodeFactory.instance.objectNode().set("recipient",
            JsonNodeFactory.instance.objectNode().put("full_name", "Ivan Ivanov")), null);
    private static final PartnerTerms AT_ONCE = new PartnerTerms(CaptureMode.AUTO, FEES);
    private static final ErrorDetails REFUSED = ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED, "expired");

    private static InitMultiSessionCommand init(PartnerTerms terms) {
        return new InitMultiSessionCommand(SESSION, PROJECT, ApiVersion.V2,
                List.of(new InitMultiSessionCommand.PaymentStart(PAYMENT, CARD_PAYMENT),
                        new InitMultiSessionCommand.PaymentStart(SECOND, CARD_PAYMENT)),
                List.of(new InitMultiSessionCommand.PayoutStart(PAYOUT, TO_A_CARD)), terms, false);
    }

    private static Object[] multiStarted() {
        return new Object[]{new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V2, PaymentData.EMPTY, PayoutData.EMPTY,
                NOW, true),
                new PaymentStartedEvent(SESSION, PAYMENT, CARD_PAYMENT, AT_ONCE, NOW),
                new PaymentStartedEvent(SESSION, SECOND, CARD_PAYMENT, AT_ONCE, NOW),
                new PayoutStartedEvent(SESSION, PAYOUT, TO_A_CARD, NOW)};
    }

    private static Object[] allReady() {
        List<Object> events = new java.util.ArrayList<>(List.of(multiStarted()));
        events.add(new PaymentReadyToConfirmEvent(SESSION, PAYMENT, NOW));
        events.add(new PaymentReadyToConfirmEvent(SESSION, SECOND, NOW));
        events.add(new PayoutReadyToConfirmEvent(SESSION, PAYOUT, NOW));
        return events.toArray();
    }

    @Test
    void everyOperationStartsTogetherAndThePaymentsAreCapturedAtOnceWhateverThePartnersMode() {
        fixture.givenNoPriorActivity()
                .when(init(DELAYED))
                .expectEvents(multiStarted());
    }

    @Test
    void aMultiSessionHoldsOneToTenOperations() {
        fixture.givenNoPriorActivity()
                .when(new InitMultiSessionCommand(SESSION, PROJECT, ApiVersion.V2, List.of(), List.of(), AUTO, false))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST));
    }

    @Test
    void theConfirmationWaitsForEveryOperationAndThenConfirmsThemAll() {
        List<Object> notAll = new java.util.ArrayList<>(List.of(multiStarted()));
        notAll.add(new PaymentReadyToConfirmEvent(SESSION, PAYMENT, NOW));
        fixture.given(notAll.toArray())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
        fixture.given(allReady())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectEvents(new PaymentConfirmedEvent(SESSION, PAYMENT, CARD_PAYMENT.railOrder(AT_ONCE), NOW),
                        new PaymentConfirmedEvent(SESSION, SECOND, CARD_PAYMENT.railOrder(AT_ONCE), NOW),
                        new PayoutConfirmedEvent(SESSION, PAYOUT, TO_A_CARD, NOW));
    }

    @Test
    void aRefusedPreCheckCancelsTheOthersOnceEveryPreCheckHasAnswered() {
        fixture.given(multiStarted())
                .andGivenCommands(new RefusePaymentCommand(SESSION, PAYMENT, REFUSED),
                        new MarkPaymentReadyToConfirmCommand(SESSION, SECOND))
                .when(new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT))
                .expectEvents(new PayoutReadyToConfirmEvent(SESSION, PAYOUT, NOW),
                        new SessionCancelledEvent(SESSION, ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                                "An operation of the session was refused at its pre-check"), NOW));
    }

    @Test
    void thePartnerCancelsTheWholeSessionWhileItWaitsForTheConfirmation() {
        fixture.given(allReady())
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectEvents(new SessionCancelledEvent(SESSION, ErrorDetails.of(
                        ErrorCode.SESSION_CANCELLED_BY_PARTNER, Session.CANCELLED_BY_PARTNER), NOW));
        fixture.given(multiStarted())
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE));
    }

    @Test
    void theFirstConfirmationTimeLimitCancelsTheWholeSession() {
        fixture.given(multiStarted())
                .andGivenCommands(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT),
                        new MarkPaymentReadyToConfirmCommand(SESSION, SECOND),
                        new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT))
                .whenTimeElapses(LIMITS.confirm().plus(Duration.ofSeconds(1)))
                .expectEvents(new SessionCancelledEvent(SESSION, ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT,
                        "The partner did not confirm in time"), NOW));
    }

    @Test
    void aConfirmedOperationEndsOnItsOwnAndNothingNamesOneOfThem() {
        List<Object> confirmed = new java.util.ArrayList<>(List.of(allReady()));
        confirmed.add(new PaymentConfirmedEvent(SESSION, PAYMENT, CARD_PAYMENT.railOrder(AT_ONCE), NOW));
        confirmed.add(new PaymentConfirmedEvent(SESSION, SECOND, CARD_PAYMENT.railOrder(AT_ONCE), NOW));
        confirmed.add(new PayoutConfirmedEvent(SESSION, PAYOUT, TO_A_CARD, NOW));
        fixture.given(confirmed.toArray())
                .when(new io.paysession.api.session.RecordPaymentAuthorizationCommand(SESSION, SECOND,
                        new AuthorizationOutcome.Declined(ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"))))
                .expectEvents(new PaymentFailedEvent(SESSION, SECOND, ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK,
                        "no"), ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                        "The session was cancelled because its payment failed: declined_by_issuer_bank"), NOW));
        fixture.given(confirmed.toArray())
                .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE));
        fixture.given(confirmed.toArray())
                .when(new RefundSessionCommand(SESSION, REFUND, PROJECT, null, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE));
    }
}
