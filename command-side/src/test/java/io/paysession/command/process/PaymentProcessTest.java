package io.paysession.command.process;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.recurrent.UseRecurrentTokenCommand;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.PaymentCaptureQueryRequestedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundOutcomeQueryRequestedEvent;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.CaptureOutcome;
import io.paysession.command.rails.PaymentRails;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import io.paysession.command.rails.StubRails;
import io.paysession.command.rails.StubRails.Call;
import io.paysession.command.rails.StubRails.Reply;
import org.axonframework.commandhandling.CommandExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PaymentProcess} on its own, with a {@link StubRails} told its next answer, Axon's recording command bus
 * in place of the Session, and the rail-call journal in memory: no Spring, no database. What a payment provider
 * checks: each step sends the Session the command that records the rail's answer; a money-moving call
 * (authorize, capture, refund) reaches the rail once per operation id, and an outcome that is not known is
 * queried, never asked for again; pre-checks and releases, which move no money, are simply asked again.
 */
class PaymentProcessTest {

    private static final String PROJECT = "shop";
    private static final SessionId SESSION = SessionId.of("ps_11");
    private static final PaymentId PAYMENT = PaymentId.of("pm_12");
    private static final Money AMOUNT = Money.of(10_000, "rub");
    private static final CardMethod CARD = new CardMethod("card_" + "7".repeat(32), "visa", "400000", "3220");
    private static final RailOrder PAID_AT_ONCE = new RailOrder(CARD, AMOUNT, CaptureMode.AUTO, "https://shop.example/back");
    private static final RailOrder HELD = new RailOrder(CARD, AMOUNT, CaptureMode.DELAYED, "https://shop.example/back");
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private final StubRails rail = new StubRails();
    private final RecordingCommands commands = new RecordingCommands();
    private final RailCalls calls = commands.railCalls(Duration.ofMillis(100));
    private final PaymentProcess process = new PaymentProcess(new PaymentRails(List.of(rail)), commands.sender(),
            calls, new MoneyMovingCalls(new InMemoryRailCallJournal(), calls));
    private final EventDelivery events = new EventDelivery(PROJECT, process);

    @AfterEach
    void stop() {
        commands.close();
    }

    private static PaymentStartedEvent started(PaymentMethod method) {
        return new PaymentStartedEvent(SESSION, PAYMENT, new PaymentData(method, AMOUNT, null, null, null, null, null),
                new PartnerTerms(CaptureMode.AUTO, FeeSchedule.NONE), NOW);
    }

    private static PaymentConfirmedEvent confirmed(RailOrder order) {
        return new PaymentConfirmedEvent(SESSION, PAYMENT, order, NOW);
    }

    @Nested
    class PreCheck {

        @Test
        void aStartedPaymentIsPreCheckedByItsRailAndThenWaitsForTheConfirmation() {
            events.handle(started(CARD));

            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.PRECHECK);
            assertThat(rail.received()).singleElement().satisfies(call ->
                    assertThat(((RailOperation) call.operation()).order())
                            .isEqualTo(new RailOrder(CARD, AMOUNT, CaptureMode.AUTO, null)));
            assertThat(commands.sent()).containsExactly(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT));
        }

        @Test
        void aPaymentTheRailRefusesAtItsPreCheckIsRefusedWithTheRailsReason() {
            rail.answerNext(Call.PRECHECK, StubRails.refused(ErrorCode.BANK_CARD_EXPIRED));

            events.handle(started(CARD));

            assertThat(commands.sent()).containsExactly(new RefusePaymentCommand(SESSION, PAYMENT,
                    ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED, "refused by the stub rail")));
        }

        @Test
        void aPreCheckWithoutAnAnswerGivesItsEventBackToBeHandledAgainAndThenAsksTheRailAgain() {
            rail.next(Call.PRECHECK, Reply.silence());

            events.handle(started(CARD));
            assertThat(commands.sent()).as("nothing is recorded for a pre-check that did not answer").isEmpty();
            assertThat(commands.inFlight().givenBack()).as("given back, first after a second")
                    .containsExactly(Map.entry(events.idOf(started(CARD)), Duration.ofSeconds(1)));

            events.handle(started(CARD)); // the recovery hands it back: a pre-check moves no money
            assertThat(rail.count(Call.PRECHECK, PAYMENT.value())).isEqualTo(2);
            assertThat(commands.sent()).containsExactly(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT));
            assertThat(commands.inFlight().inFlight()).as("answered: nothing left in flight").isEmpty();
        }

        @Test
        void aChargeWithATokenUsesTheTokenForThePartnersProjectBeforeThePreCheck() {
            RecurrentMethod token = new RecurrentMethod("rt_1", RecurrentMethod.Initiator.MERCHANT, CARD);

            events.handle(started(token));

            assertThat(commands.sent()).containsExactly(new UseRecurrentTokenCommand("rt_1", SESSION, PAYMENT, PROJECT),
                    new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT));
            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.PRECHECK);
        }

        @Test
        void aChargeWithADisabledTokenFailsAtItsPreCheckWithTheTokensRefusalAndNeverReachesTheRail() {
            commands.refuseNext(UseRecurrentTokenCommand.class,
                    new PaymentsException(ErrorCode.RECURRENT_TOKEN_INACTIVE, "The recurrent token is disabled"));

            events.handle(started(new RecurrentMethod("rt_1", RecurrentMethod.Initiator.MERCHANT, CARD)));

            assertThat(commands.sent()).containsExactly(new UseRecurrentTokenCommand("rt_1", SESSION, PAYMENT, PROJECT),
                    new RefusePaymentCommand(SESSION, PAYMENT,
                            ErrorDetails.of(ErrorCode.RECURRENT_TOKEN_INACTIVE, "The recurrent token is disabled")));
            assertThat(rail.received()).isEmpty();
        }

        @Test
        void aDisabledTokensRefusalThatCrossedARemoteCommandBusFailsThePaymentWithItsCode() {
            commands.refuseNext(UseRecurrentTokenCommand.class, remote(ErrorDetails.of(
                    ErrorCode.RECURRENT_TOKEN_INACTIVE, "The recurrent token is disabled")));

            events.handle(started(new RecurrentMethod("rt_1", RecurrentMethod.Initiator.MERCHANT, CARD)));

            assertThat(commands.sent()).endsWith(new RefusePaymentCommand(SESSION, PAYMENT,
                    ErrorDetails.of(ErrorCode.RECURRENT_TOKEN_INACTIVE, "The recurrent token is disabled")));
            assertThat(rail.received()).isEmpty();
        }
    }

    @Nested
    class Authorization {

        @Test
        void aConfirmedPaymentIsAuthorizedOnceWithItsOrderAndTheApprovalIsRecorded() {
            events.handle(confirmed(PAID_AT_ONCE));

            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.AUTHORIZE);
            assertThat(rail.received()).singleElement().satisfies(call ->
                    assertThat(call.operation()).isEqualTo(new RailOperation(SESSION, PAYMENT, PAID_AT_ONCE)));
            assertThat(commands.sent()).containsExactly(
                    new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, StubRails.approved()));
        }

        @Test
        void aHoldForALaterCaptureIsRecordedAsHeld() {
            events.handle(confirmed(HELD));

            assertThat(commands.sent()).containsExactly(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT,
                    new AuthorizationOutcome.Held(StubRails.TRANSACTION)));
        }

        @Test
        void aDeclineIsRecordedWithTheIssuersReason() {
            rail.answerNext(Call.AUTHORIZE, StubRails.declined(ErrorCode.INSUFFICIENT_FUNDS));

            events.handle(confirmed(PAID_AT_ONCE));

            assertThat(commands.sent()).containsExactly(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT,
                    StubRails.declined(ErrorCode.INSUFFICIENT_FUNDS)));
        }

        @Test
        void aPaymentNeedingThePayerFor3DSecureIsRecordedWithThePageAndTheRailIsNotAskedAgain() {
            rail.answerNext(Call.AUTHORIZE, StubRails.payerActionRequired());

            events.handle(confirmed(PAID_AT_ONCE));

            assertThat(commands.sent()).containsExactly(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT,
                    StubRails.payerActionRequired()));
            assertThat(rail.callsFor(PAYMENT.value())).as("the verdict comes by the rail's callback")
                    .containsExactly(Call.AUTHORIZE);
        }

        @Test
        void aWrongStateRefusalThatCrossedARemoteCommandBusIsTakenAsTheAnswerRecordedAlready() {
            commands.refuseNext(RecordPaymentAuthorizationCommand.class, remote(ErrorDetails.of(
                    ErrorCode.SESSION_WRONG_STATE, "the payment has its answer already")));
            events.handle(confirmed(PAID_AT_ONCE));

            events.handle(confirmed(PAID_AT_ONCE));

            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.AUTHORIZE, Call.QUERY_AUTHORIZATION);
        }

        @Test
        void theSameConfirmationHandledAgainAfterItsAnswerWasRecordedAsksTheQueryAndNeverAuthorizesTwice() {
            commands.refuseNext(RecordPaymentAuthorizationCommand.class,
                    PaymentsException.wrongState("the payment has its answer already"));
            events.handle(confirmed(PAID_AT_ONCE));

            events.handle(confirmed(PAID_AT_ONCE)); // a crash after the answer was recorded, before the position moved

            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.AUTHORIZE, Call.QUERY_AUTHORIZATION);
            assertThat(commands.sent()).hasSize(2).containsOnly(
                    new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, StubRails.approved()));
        }
    }

    @Nested
    class UnknownOutcome {

        @Test
        void anAuthorizationWithoutAnAnswerInTimeIsRecordedAsAProviderTimeOut() {
            rail.next(Call.AUTHORIZE, Reply.silence());

            events.handle(confirmed(PAID_AT_ONCE));

            assertThat(commands.sent()).singleElement().isInstanceOfSatisfying(RecordPaymentAuthorizationCommand.class,
                    command -> assertThat(command.outcome()).isInstanceOfSatisfying(AuthorizationOutcome.Unknown.class,
                            unknown -> assertThat(unknown.reason().code()).isEqualTo(ErrorCode.PROVIDER_TIMEOUT)));
        }

        @Test
        void anUnknownOutcomeIsQueriedWhenItsDeadlineSaysSoAndTheAuthorizationIsNeverSentAgain() {
            rail.answerNext(Call.AUTHORIZE, StubRails.unknown());
            events.handle(confirmed(PAID_AT_ONCE));

            events.handle(new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, PAID_AT_ONCE, 1, NOW));

            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.AUTHORIZE, Call.QUERY_AUTHORIZATION);
            assertThat(commands.sent()).containsExactly(
                    new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, StubRails.unknown()),
                    new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, StubRails.approved()));
        }

        @Test
        void aQueryThatStillCannotTellIsRecordedAsUnknownAgainForTheNextDeadline() {
            rail.answerNext(Call.QUERY_AUTHORIZATION, StubRails.unknown());

            events.handle(new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, PAID_AT_ONCE, 3, NOW));

            assertThat(commands.sent()).containsExactly(
                    new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, StubRails.unknown()));
            assertThat(rail.count(Call.AUTHORIZE, PAYMENT.value())).isZero();
        }
    }

    @Nested
    class CaptureAndRelease {

        @Test
        void aCaptureDebitsTheAmountAskedOnceAndIsRecordedWithTheRailsTransaction() {
            Money part = Money.of(6_000, "rub");

            events.handle(new PaymentCaptureRequestedEvent(SESSION, PAYMENT, HELD, part, NOW));

            assertThat(rail.received()).singleElement().satisfies(call -> {
                assertThat(call.call()).isEqualTo(Call.CAPTURE);
                assertThat(call.amount()).isEqualTo(part);
            });
            assertThat(commands.sent()).containsExactly(
                    new RecordPaymentCaptureCommand(SESSION, PAYMENT, StubRails.TRANSACTION));
        }

        @Test
        void aCaptureWhoseOutcomeIsUnknownIsRecordedSoAndLaterQueriedNeverCapturedAgain() {
            rail.next(Call.CAPTURE, Reply.failing());
            events.handle(new PaymentCaptureRequestedEvent(SESSION, PAYMENT, HELD, AMOUNT, NOW));

            events.handle(new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, HELD, AMOUNT, 1, NOW));

            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.CAPTURE, Call.QUERY_CAPTURE);
            assertThat(commands.sent().get(0)).isInstanceOfSatisfying(RecordCaptureOutcomeUnknownCommand.class,
                    unknown -> assertThat(unknown.reason().code()).isEqualTo(ErrorCode.PROVIDER_TIMEOUT));
            assertThat(commands.sent().get(1)).isEqualTo(
                    new RecordPaymentCaptureCommand(SESSION, PAYMENT, StubRails.TRANSACTION));
        }

        @Test
        void aReleasedHoldIsGivenBackOnTheRailAndRecordsNothing() {
            events.handle(new PaymentHoldReleasedEvent(SESSION, PAYMENT, HELD, NOW));

            assertThat(rail.callsFor(PAYMENT.value())).containsExactly(Call.RELEASE);
            assertThat(commands.sent()).isEmpty();
        }

        @Test
        void aReleaseTheRailDoesNotAnswerGivesItsEventBackSoThatTheReleaseIsAskedAgain() {
            rail.next(Call.RELEASE, Reply.throwing());
            PaymentHoldReleasedEvent released = new PaymentHoldReleasedEvent(SESSION, PAYMENT, HELD, NOW);

            events.handle(released);
            assertThat(commands.inFlight().givenBack()).containsOnlyKeys(events.idOf(released));
            events.handle(released);

            assertThat(rail.count(Call.RELEASE, PAYMENT.value())).isEqualTo(2);
            assertThat(commands.inFlight().inFlight()).as("released: nothing left in flight").isEmpty();
        }
    }

    @Nested
    class Refund {

        private static final RefundId REFUND = RefundId.of("rf_13");
        private static final Money PART = Money.of(2_500, "rub");

        private RefundRequestedEvent requested(RefundId refund) {
            return new RefundRequestedEvent(SESSION, PAYMENT, refund, PAID_AT_ONCE, PART, null, NOW);
        }

        @Test
        void anAcceptedRefundIsRecordedAsAccepted() {
            events.handle(requested(REFUND));

            assertThat(rail.received()).singleElement().satisfies(call -> {
                assertThat(call.call()).isEqualTo(Call.REFUND);
                assertThat(call.operationId()).isEqualTo(REFUND.value());
                assertThat(call.amount()).isEqualTo(PART);
            });
            assertThat(commands.sent()).containsExactly(new RecordRefundOutcomeCommand(SESSION, REFUND, true, null));
        }

        @Test
        void aDeclinedRefundIsRecordedWithTheRailsReason() {
            ErrorDetails reason = ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "The issuer bank refused the refund");
            rail.answerNext(Call.REFUND, new RefundOutcome.Declined(reason));

            events.handle(requested(REFUND));

            assertThat(commands.sent()).containsExactly(new RecordRefundOutcomeCommand(SESSION, REFUND, false, reason));
        }

        @Test
        void aRefundWhoseOutcomeIsUnknownIsQueriedLaterAndNeverPaidBackTwice() {
            rail.answerNext(Call.REFUND, new RefundOutcome.Unknown(
                    ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "the issuer did not answer")));
            events.handle(requested(REFUND));

            events.handle(new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, PAID_AT_ONCE, PART, 1, NOW));

            assertThat(rail.callsFor(REFUND.value())).containsExactly(Call.REFUND, Call.QUERY_REFUND);
            assertThat(commands.sent()).containsExactly(
                    new RecordRefundOutcomeUnknownCommand(SESSION, REFUND,
                            ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "the issuer did not answer")),
                    new RecordRefundOutcomeCommand(SESSION, REFUND, true, null));
        }

        @Test
        void twoRefundsOfOnePaymentAreEachSentOnceUnderTheirOwnRefundId() {
            RefundId second = RefundId.of("rf_14");

            events.handle(requested(REFUND));
            events.handle(requested(second));
            events.handle(requested(REFUND)); // the first handled again

            assertThat(rail.count(Call.REFUND, REFUND.value())).isEqualTo(1);
            assertThat(rail.count(Call.REFUND, second.value())).isEqualTo(1);
            assertThat(rail.count(Call.QUERY_REFUND, REFUND.value())).isEqualTo(1);
        }
    }

    @Test
    void aCardPaymentsLifeAuthorizesOnceTheOnlyCallThatCarriesTheSecurityCode() {
        rail.answerNext(Call.AUTHORIZE, StubRails.unknown());
        events.handle(confirmed(HELD));
        events.handle(new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, HELD, 1, NOW));
        events.handle(new PaymentCaptureRequestedEvent(SESSION, PAYMENT, HELD, AMOUNT, NOW));
        events.handle(new RefundRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_15"), HELD, AMOUNT, null, NOW));

        assertThat(rail.count(Call.AUTHORIZE, PAYMENT.value()))
                .as("the acquirer reads the security code for the authorization only; everything later goes without it")
                .isEqualTo(1);
        assertThat(rail.received()).allSatisfy(call -> assertThat(((RailOperation) call.operation()).order().method())
                .as("the rail gets the vault token, never card data").isEqualTo(CARD));
        assertThat(commands.sent()).hasSize(4).element(3)
                .isEqualTo(new RecordRefundOutcomeCommand(SESSION, RefundId.of("rf_15"), true, null));
        assertThat(commands.sent()).element(1).isEqualTo(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT,
                new AuthorizationOutcome.Held(StubRails.TRANSACTION)));
        assertThat(commands.sent()).element(2).isInstanceOf(RecordPaymentCaptureCommand.class);
    }

    /** A refusal as a command bus that runs the command in another process answers it: message and details only. */
    private static CommandExecutionException remote(ErrorDetails details) {
        return new CommandExecutionException(details.description(), null, details);
    }
}
