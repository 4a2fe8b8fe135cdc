package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.InitPayoutCommand;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutOutcomeOverdueEvent;
import io.paysession.api.session.PayoutOutcomeQueryRequestedEvent;
import io.paysession.api.session.PayoutOutcomeUnknownEvent;
import io.paysession.api.session.PayoutReadyToConfirmEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.RecordPayoutOutcomeCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.RefusePayoutCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.StartPayoutCommand;
import io.paysession.api.session.TransactionInfo;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static io.paysession.command.session.SessionTestSupport.refusedWith;

/** A session whose operation is a payout: its own ids and clock, the shared refusal matcher. */
class SessionPayoutTest {

    private static final Instant NOW = Instant.parse("2026-11-22T11:00:00.000001Z");
    private static final SessionId SESSION = SessionId.of("ps_9");
    private static final PayoutId PAYOUT = PayoutId.of("po_4");
    private static final String PROJECT = "shop";
    private static final Money AMOUNT = Money.of(150_000, "rub");
    private static final PayoutMethod CARD = new PayoutMethod.Card("bank_card", "card_77", "mir", "220000", "0004");
    private static final PayoutData CARD_PAYOUT = new PayoutData(CARD, AMOUNT, null,
            JsonNodeFactory.instance.objectNode().set("recipient",
                    JsonNodeFactory.instance.objectNode().put("full_name", "Иван Иванов")), null);
    private static final PayoutData VERIFICATION = new PayoutData(
            new PayoutMethod.FasterPaymentVerification("79261234567", "100000000069"), null, null,
            JsonNodeFactory.instance.objectNode().set("recipient", JsonNodeFactory.instance.objectNode()
                    .put("first_name", "Ivan").put("last_name", "Ivanov")), null);
    private static final ErrorDetails NOT_FOUND = ErrorDetails.of(ErrorCode.ACCOUNT_NOT_FOUND, "no such account");

    private FixtureConfiguration<Session> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Session.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
        fixture.registerInjectableResource(SessionClocks.real(Clock.fixed(NOW, ZoneOffset.UTC)));
        fixture.registerInjectableResource(SessionTimeLimits.defaults());
    }

    private static SessionCreatedEvent created(PayoutData draft) {
        return new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V2, PaymentData.EMPTY, draft, NOW);
    }

    private static PayoutStartedEvent started() {
        return new PayoutStartedEvent(SESSION, PAYOUT, CARD_PAYOUT, NOW);
    }

    private static PayoutFailedEvent failed(ErrorDetails reason) {
        return new PayoutFailedEvent(SESSION, PAYOUT, reason, ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                "The session was cancelled because its payout failed: " + reason.code().code()), NOW);
    }

    private static Object[] awaitingConfirmation() {
        return new Object[]{created(PayoutData.EMPTY), started(), new PayoutReadyToConfirmEvent(SESSION, PAYOUT, NOW)};
    }

    private static Object[] sent() {
        return new Object[]{created(PayoutData.EMPTY), started(), new PayoutReadyToConfirmEvent(SESSION, PAYOUT, NOW),
                new PayoutConfirmedEvent(SESSION, PAYOUT, CARD_PAYOUT, NOW)};
    }

    @Test
    void initCreatesTheSessionAndStartsThePayout() {
        fixture.givenNoPriorActivity()
                .when(new InitPayoutCommand(SESSION, PAYOUT, PROJECT, ApiVersion.V2, CARD_PAYOUT))
                .expectEvents(created(PayoutData.EMPTY), started());
    }

    @Test
    void aPayoutWithoutAmountIsRefused() {
        fixture.givenNoPriorActivity()
                .when(new InitPayoutCommand(SESSION, PAYOUT, PROJECT, ApiVersion.V2,
                        new PayoutData(CARD, null, null, null, null)))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectExceptionMessage("amount_details is required to start a payout")
                .expectNoEvents();
    }

    @Test
    void startCompletesTheDraftOfCreate() {
        PayoutData draft = new PayoutData(CARD, null, null, null, null);
        fixture.given(created(draft))
                .when(new StartPayoutCommand(SESSION, PAYOUT, PROJECT,
                        new PayoutData(null, AMOUNT, null, CARD_PAYOUT.participantDetails(), null)))
                .expectEvents(started());
    }

    @Test
    void aCreatedSessionCarriesItsPayoutDraft() {
        fixture.givenNoPriorActivity()
                .when(new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V2, null, CARD_PAYOUT))
                .expectEvents(created(CARD_PAYOUT));
    }

    @Test
    void aSecondOperationIsRefused() {
        fixture.given(created(PayoutData.EMPTY), started())
                .when(new StartPayoutCommand(SESSION, PayoutId.of("po_5"), PROJECT, CARD_PAYOUT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void startByAnotherProjectIsRefused() {
        fixture.given(created(PayoutData.EMPTY))
                .when(new StartPayoutCommand(SESSION, PAYOUT, "intruder", CARD_PAYOUT))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
    }

    @Test
    void aPassedPrecheckAsksForConfirmationWithinItsWindow() {
        fixture.given(created(PayoutData.EMPTY), started())
                .when(new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT))
                .expectEvents(new PayoutReadyToConfirmEvent(SESSION, PAYOUT, NOW))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(240), Session.CONFIRM_TIMEOUT);
    }

    @Test
    void aRefusedPrecheckFailsThePayout() {
        fixture.given(created(PayoutData.EMPTY), started())
                .when(new RefusePayoutCommand(SESSION, PAYOUT, NOT_FOUND))
                .expectEvents(failed(NOT_FOUND));
    }

    @Test
    void confirmSendsThePayoutToItsBank() {
        fixture.given(awaitingConfirmation())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectEvents(new PayoutConfirmedEvent(SESSION, PAYOUT, CARD_PAYOUT, NOW));
    }

    @Test
    void cancelAfterReadyToConfirmCancelsThePayout() {
        ErrorDetails byPartner = ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, Session.CANCELLED_BY_PARTNER);
        fixture.given(awaitingConfirmation())
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectEvents(new SessionCancelledEvent(SESSION, byPartner, NOW));
    }

    @Test
    void withoutConfirmationInTimeThePayoutIsCancelled() {
        fixture.given(created(PayoutData.EMPTY), started())
                .andGivenCommands(new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT))
                .whenTimeElapses(Duration.ofMinutes(240))
                .expectEvents(new SessionCancelledEvent(SESSION,
                        ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "The partner did not confirm in time"), NOW));
    }

    @Test
    void theBanksApprovalPaysThePayoutOut() {
        TransactionInfo info = TransactionInfo.card("123456789012", null);
        fixture.given(sent())
                .when(new RecordPayoutOutcomeCommand(SESSION, PAYOUT, new AuthorizationOutcome.Approved(info)))
                .expectEvents(new PayoutSucceededEvent(SESSION, PAYOUT, info, NOW));
    }

    @Test
    void theBanksDeclineFailsThePayout() {
        fixture.given(sent())
                .when(new RecordPayoutOutcomeCommand(SESSION, PAYOUT, new AuthorizationOutcome.Declined(NOT_FOUND)))
                .expectEvents(failed(NOT_FOUND));
    }

    @Test
    void anUnansweredPayoutIsAskedAgainLater() {
        ErrorDetails timeout = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "late");
        fixture.given(sent())
                .andGivenCommands(new RecordPayoutOutcomeCommand(SESSION, PAYOUT, new AuthorizationOutcome.Unknown(timeout)))
                .whenTimeElapses(Duration.ofSeconds(30))
                .expectEvents(new PayoutOutcomeQueryRequestedEvent(SESSION, PAYOUT, CARD_PAYOUT, 1, NOW));
    }

    @Test
    void aPayoutUnknownAfterTheFifthQueryIsInErrorAndStillPaidOutByTheRailsLaterAnswer() {
        ErrorDetails timeout = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "late");
        java.util.List<Object> asked = new java.util.ArrayList<>(java.util.List.of(sent()));
        for (int query = 0; query < 5; query++) {
            asked.add(new PayoutOutcomeUnknownEvent(SESSION, PAYOUT, timeout, query, NOW));
            asked.add(new PayoutOutcomeQueryRequestedEvent(SESSION, PAYOUT, CARD_PAYOUT, query + 1, NOW));
        }
        PayoutOutcomeOverdueEvent overdue = new PayoutOutcomeOverdueEvent(SESSION, PAYOUT,
                Operation.overdueError("payout", 5), Operation.overdueSessionError(PAYOUT.value()), NOW);
        fixture.given(asked.toArray())
                .when(new RecordPayoutOutcomeCommand(SESSION, PAYOUT, new AuthorizationOutcome.Unknown(timeout)))
                .expectEvents(new PayoutOutcomeUnknownEvent(SESSION, PAYOUT, timeout, 5, NOW), overdue)
                .expectScheduledDeadlineWithName(Duration.ofMinutes(16), Session.OUTCOME_QUERY);

        asked.add(new PayoutOutcomeUnknownEvent(SESSION, PAYOUT, timeout, 5, NOW));
        asked.add(overdue);
        TransactionInfo paid = TransactionInfo.card("1", null);
        fixture.given(asked.toArray())
                .when(new RecordPayoutOutcomeCommand(SESSION, PAYOUT, new AuthorizationOutcome.Approved(paid)))
                .expectEvents(new PayoutSucceededEvent(SESSION, PAYOUT, paid, NOW));
    }

    @Test
    void anAnswerAPayoutCannotHaveIsRefused() {
        fixture.given(sent())
                .when(new RecordPayoutOutcomeCommand(SESSION, PAYOUT,
                        new AuthorizationOutcome.Held(TransactionInfo.card("1", "2"))))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void anAnswerBeforeConfirmationIsRefused() {
        fixture.given(awaitingConfirmation())
                .when(new RecordPayoutOutcomeCommand(SESSION, PAYOUT,
                        new AuthorizationOutcome.Approved(TransactionInfo.card("1", null))))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aPayoutCannotBeRefundedOrCaptured() {
        Object[] paidOut = {created(PayoutData.EMPTY), started(), new PayoutReadyToConfirmEvent(SESSION, PAYOUT, NOW),
                new PayoutConfirmedEvent(SESSION, PAYOUT, CARD_PAYOUT, NOW),
                new PayoutSucceededEvent(SESSION, PAYOUT, TransactionInfo.card("1", null), NOW)};
        fixture.given(paidOut)
                .when(new RefundSessionCommand(SESSION, RefundId.of("rf_1"), PROJECT, null, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
        fixture.given(paidOut)
                .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aRecipientVerificationIsConfirmedAtOnce() {
        fixture.givenNoPriorActivity()
                .when(new InitPayoutCommand(SESSION, PAYOUT, PROJECT, ApiVersion.V1, VERIFICATION))
                .expectEvents(new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, PaymentData.EMPTY,
                                PayoutData.EMPTY, NOW),
                        new PayoutStartedEvent(SESSION, PAYOUT, VERIFICATION, NOW),
                        new PayoutConfirmedEvent(SESSION, PAYOUT, VERIFICATION, NOW))
                .expectNoScheduledDeadlines();
    }

    @Test
    void aRecipientNotFoundFailsTheVerification() {
        fixture.given(new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, PaymentData.EMPTY, PayoutData.EMPTY, NOW),
                        new PayoutStartedEvent(SESSION, PAYOUT, VERIFICATION, NOW),
                        new PayoutConfirmedEvent(SESSION, PAYOUT, VERIFICATION, NOW))
                .when(new RecordPayoutOutcomeCommand(SESSION, PAYOUT, new AuthorizationOutcome.Declined(NOT_FOUND)))
                .expectEvents(failed(NOT_FOUND));
    }
}
