package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.TransactionInfo;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

class SessionTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:15:30.123456Z");
    private static final SessionId SESSION = SessionId.of("ps_1");
    private static final PaymentId PAYMENT = PaymentId.of("pm_7");
    private static final String PROJECT = "shop";
    private static final CardMethod CARD = new CardMethod("card_0123", "visa", "424242", "4242");
    private static final Money AMOUNT = Money.of(10_000, "RUB");
    private static final PartnerTerms TERMS = new PartnerTerms(CaptureMode.AUTO, new FeeSchedule(250, 30));
    private static final ObjectNode CUSTOMER = JsonNodeFactory.instance.objectNode().put("reference", "lucky");
    private static final PaymentData PAYMENT_DATA = new PaymentData(CARD, AMOUNT, CUSTOMER, null, null,
            JsonNodeFactory.instance.textNode("order 42"), null);
    private static final ErrorDetails CANCELLED_BY_PARTNER =
            ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, Session.CANCELLED_BY_PARTNER);

    private FixtureConfiguration<Session> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Session.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static SessionCreatedEvent created(PaymentData draft) {
        return new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, draft, NOW);
    }

    private static PaymentStartedEvent started() {
        return new PaymentStartedEvent(SESSION, PAYMENT, PAYMENT_DATA, TERMS, NOW);
    }

    private static PaymentReadyToConfirmEvent readyToConfirm() {
        return new PaymentReadyToConfirmEvent(SESSION, PAYMENT, NOW);
    }

    private static PaymentConfirmedEvent confirmed() {
        return new PaymentConfirmedEvent(SESSION, PAYMENT, CARD, AMOUNT, NOW);
    }

    private static PaymentFailedEvent failed(ErrorCode code, String description) {
        return new PaymentFailedEvent(SESSION, PAYMENT, ErrorDetails.of(code, description),
                ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                        "The session was cancelled because its payment failed: " + code.code()),
                NOW);
    }

    private static Matcher<Throwable> refusedWith(ErrorCode code) {
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(Throwable item) {
                return item instanceof PaymentsException refusal && refusal.code() == code;
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("a PaymentsException with code " + code.code());
            }
        };
    }

    @Test
    void createdSessionHoldsTheDraftAndNothingElse() {
        fixture.givenNoPriorActivity()
                .when(new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V1, PAYMENT_DATA))
                .expectSuccessfulHandlerExecution()
                .expectEvents(created(PAYMENT_DATA));
    }

    @Test
    void createWithoutDataKeepsAnEmptyDraft() {
        fixture.givenNoPriorActivity()
                .when(new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V2, null))
                .expectEvents(new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V2, PaymentData.EMPTY, NOW));
    }

    @Test
    void initCreatesTheSessionAndStartsThePaymentAtOnce() {
        fixture.givenNoPriorActivity()
                .when(new InitPaymentCommand(SESSION, PAYMENT, PROJECT, ApiVersion.V1, PAYMENT_DATA, TERMS))
                .expectEvents(created(PaymentData.EMPTY), started());
    }

    @Test
    void initWithoutCustomerIsRefusedAndCreatesNothing() {
        PaymentData noCustomer = new PaymentData(CARD, AMOUNT, null, null, null, null, null);
        fixture.givenNoPriorActivity()
                .when(new InitPaymentCommand(SESSION, PAYMENT, PROJECT, ApiVersion.V1, noCustomer, TERMS))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectExceptionMessage("customer is required to start a payment")
                .expectNoEvents();
    }

    @Test
    void startCompletesTheDraftWithTheDataItGives() {
        PaymentData draft = new PaymentData(CARD, AMOUNT, null, null, null, null, null);
        PaymentData atStart = new PaymentData(null, null, CUSTOMER, null, null,
                JsonNodeFactory.instance.textNode("order 42"), null);
        fixture.given(created(draft))
                .when(new StartPaymentCommand(SESSION, PAYMENT, PROJECT, atStart, TERMS))
                .expectEvents(started());
    }

    @Test
    void dataGivenAtStartReplacesDataGivenAtCreate() {
        PaymentData draft = new PaymentData(CARD, Money.of(1, "usd"), CUSTOMER, null, null, null, null);
        fixture.given(created(draft))
                .when(new StartPaymentCommand(SESSION, PAYMENT, PROJECT, PAYMENT_DATA, TERMS))
                .expectEvents(started());
    }

    @Test
    void startWithoutPaymentDetailsAnywhereIsRefused() {
        fixture.given(created(PaymentData.EMPTY))
                .when(new StartPaymentCommand(SESSION, PAYMENT, PROJECT,
                        new PaymentData(null, AMOUNT, CUSTOMER, null, null, null, null), TERMS))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectExceptionMessage("payment_details is required to start a payment")
                .expectNoEvents();
    }

    @Test
    void startOfAnotherProjectsSessionIsRefused() {
        fixture.given(created(PaymentData.EMPTY))
                .when(new StartPaymentCommand(SESSION, PAYMENT, "intruder", PAYMENT_DATA, TERMS))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
    }

    @Test
    void aSecondStartIsRefusedWhileThePaymentRuns() {
        fixture.given(created(PaymentData.EMPTY), started())
                .when(new StartPaymentCommand(SESSION, PaymentId.of("pm_8"), PROJECT, PAYMENT_DATA, TERMS))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void passedPrecheckAsksThePartnerToConfirm() {
        fixture.given(created(PaymentData.EMPTY), started())
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT))
                .expectEvents(readyToConfirm());
    }

    @Test
    void refusedPrecheckFailsThePaymentAndCancelsTheSession() {
        ErrorDetails expired = ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED, "The card expired");
        fixture.given(created(PaymentData.EMPTY), started())
                .when(new RefusePaymentCommand(SESSION, PAYMENT, expired))
                .expectEvents(failed(ErrorCode.BANK_CARD_EXPIRED, "The card expired"));
    }

    @Test
    void precheckAnswerForAnotherPaymentIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started())
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PaymentId.of("pm_99")))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aRepeatedPrecheckAnswerIsRefusedAsWrongState() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm())
                .when(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void confirmAfterReadyToConfirmSendsThePaymentToTheRail() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectEvents(confirmed());
    }

    @Test
    void confirmBeforeReadyToConfirmIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectExceptionMessage(
                        "session/confirm is not allowed while the session is in_progress and its payment is in_progress")
                .expectNoEvents();
    }

    @Test
    void confirmOfACreatedSessionIsRefused() {
        fixture.given(created(PaymentData.EMPTY))
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aSecondConfirmIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm(), confirmed())
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void confirmByAnotherProjectIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm())
                .when(new ConfirmSessionCommand(SESSION, "intruder"))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
    }

    @Test
    void cancelAfterReadyToConfirmCancelsTheSessionAndItsPayment() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm())
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectEvents(new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW));
    }

    @Test
    void aCreatedSessionCanBeCancelled() {
        fixture.given(created(PaymentData.EMPTY))
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectEvents(new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW));
    }

    @Test
    void cancelBeforeReadyToConfirmIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started())
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void cancelWhileTheRailProcessesIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm(), confirmed())
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void cancelOfACancelledSessionIsRefused() {
        fixture.given(created(PaymentData.EMPTY), new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW))
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void cancelByAnotherProjectIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm())
                .when(new CancelSessionCommand(SESSION, "intruder"))
                .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                .expectNoEvents();
    }

    @Test
    void approvalSucceedsThePaymentWithTheMerchantFee() {
        TransactionInfo info = new TransactionInfo("123456789012", "A1B2C3");
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm(), confirmed())
                .when(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.Approved(info)))
                // 30 + 10000 * 250 / 10000 = 280
                .expectEvents(new PaymentSucceededEvent(SESSION, PAYMENT, info, Money.of(280, "rub"), NOW));
    }

    @Test
    void declineFailsThePaymentAndCancelsTheSession() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm(), confirmed())
                .when(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.Declined(
                        ErrorDetails.of(ErrorCode.INSUFFICIENT_FUNDS, "Insufficient funds on the card"))))
                .expectEvents(failed(ErrorCode.INSUFFICIENT_FUNDS, "Insufficient funds on the card"));
    }

    @Test
    void anAuthorizationAnswerBeforeConfirmationIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm())
                .when(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT,
                        new AuthorizationOutcome.Approved(new TransactionInfo("1", "2"))))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void aRepeatedAuthorizationAnswerChangesNothing() {
        TransactionInfo info = new TransactionInfo("123456789012", "A1B2C3");
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm(), confirmed(),
                        new PaymentSucceededEvent(SESSION, PAYMENT, info, Money.of(280, "rub"), NOW))
                .when(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.Declined(
                        ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "late"))))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    @Test
    void confirmAfterTheSessionIsAcceptedIsRefused() {
        fixture.given(created(PaymentData.EMPTY), started(), readyToConfirm(), confirmed(),
                        new PaymentSucceededEvent(SESSION, PAYMENT, new TransactionInfo("1", "2"),
                                Money.of(280, "rub"), NOW))
                .when(new ConfirmSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }
}
