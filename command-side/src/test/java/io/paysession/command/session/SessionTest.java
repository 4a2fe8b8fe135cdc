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
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.FasterPaymentBindingMethod;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureOutcomeUnknownEvent;
import io.paysession.api.session.PaymentCaptureQueryRequestedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RefundOutcomeQueryRequestedEvent;
import io.paysession.api.session.RefundOutcomeUnknownEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.SessionLimits;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.session.WalletMethod;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

class SessionTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:15:30.123456Z");
    private static final SessionId SESSION = SessionId.of("ps_1");
    private static final PaymentId PAYMENT = PaymentId.of("pm_7");
    private static final RefundId REFUND = RefundId.of("rf_3");
    private static final String PROJECT = "shop";
    private static final CardMethod CARD = new CardMethod("card_0123", "visa", "424242", "4242");
    private static final Money AMOUNT = Money.of(10_000, "RUB");
    private static final FeeSchedule FEES = new FeeSchedule(250, 30);
    private static final PartnerTerms AUTO = new PartnerTerms(CaptureMode.AUTO, FEES);
    private static final PartnerTerms DELAYED = new PartnerTerms(CaptureMode.DELAYED, FEES);
    private static final ObjectNode CUSTOMER = JsonNodeFactory.instance.objectNode().put("reference", "lucky");
    private static final PaymentData CARD_PAYMENT = payment(CARD);
    private static final TransactionInfo AUTH = TransactionInfo.card("123456789012", "A1B2C3");
    private static final SessionTimeLimits LIMITS = SessionTimeLimits.defaults();
    private static final ErrorDetails CANCELLED_BY_PARTNER =
            ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, Session.CANCELLED_BY_PARTNER);
    private static final CustomerInteraction CHALLENGE = new CustomerInteraction.Redirect(
            "https://pay.example/sandbox/interactions/abc", "https://pay.example/sandbox/interactions/abc", "GET",
            Map.of(), Map.of());

    private FixtureConfiguration<Session> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Session.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
        fixture.registerInjectableResource(LIMITS);
    }

    private static PaymentData payment(PaymentMethod method) {
        return new PaymentData(method, AMOUNT, CUSTOMER, null, null, JsonNodeFactory.instance.textNode("order 42"), null);
    }

    private static RailOrder order(PaymentMethod method, PartnerTerms terms) {
        return new RailOrder(method, AMOUNT, terms.captureMode(), null);
    }

    private static SessionCreatedEvent created(PaymentData draft) {
        return new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, draft, PayoutData.EMPTY, NOW);
    }

    private static SessionCreatedEvent created() {
        return created(PaymentData.EMPTY);
    }

    private static PaymentStartedEvent started(PaymentMethod method, PartnerTerms terms) {
        return new PaymentStartedEvent(SESSION, PAYMENT, payment(method), terms, NOW);
    }

    private static PaymentStartedEvent started() {
        return started(CARD, AUTO);
    }

    private static PaymentReadyToConfirmEvent readyToConfirm() {
        return new PaymentReadyToConfirmEvent(SESSION, PAYMENT, NOW);
    }

    private static PaymentConfirmedEvent confirmed(PaymentMethod method, PartnerTerms terms) {
        return new PaymentConfirmedEvent(SESSION, PAYMENT, order(method, terms), NOW);
    }

    private static PaymentConfirmedEvent confirmed() {
        return confirmed(CARD, AUTO);
    }

    private static PaymentSucceededEvent succeeded(Money captured) {
        return new PaymentSucceededEvent(SESSION, PAYMENT, AUTH, captured, FEES.feeFor(captured), NOW);
    }

    private static PaymentFailedEvent failed(ErrorCode code, String description) {
        return new PaymentFailedEvent(SESSION, PAYMENT, ErrorDetails.of(code, description),
                ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                        "The session was cancelled because its payment failed: " + code.code()),
                NOW);
    }

    private static Object[] paid() {
        return new Object[]{created(), started(), readyToConfirm(), confirmed(), succeeded(AMOUNT)};
    }

    private static Object[] held() {
        return new Object[]{created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED),
                new PaymentAuthorizedEvent(SESSION, PAYMENT, AUTH, NOW)};
    }

    private static RecordPaymentAuthorizationCommand answer(AuthorizationOutcome outcome) {
        return new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, outcome);
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

    @Nested
    class CreatingAndStarting {

        @Test
        void createdSessionHoldsTheDraftAndNothingElse() {
            fixture.givenNoPriorActivity()
                    .when(new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V1, CARD_PAYMENT, null))
                    .expectEvents(created(CARD_PAYMENT));
        }

        @Test
        void createWithoutDataKeepsAnEmptyDraft() {
            fixture.givenNoPriorActivity()
                    .when(new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V2, null, null))
                    .expectEvents(new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V2, PaymentData.EMPTY, PayoutData.EMPTY, NOW));
        }

        @Test
        void initCreatesTheSessionAndStartsThePaymentAtOnce() {
            fixture.givenNoPriorActivity()
                    .when(new InitPaymentCommand(SESSION, PAYMENT, PROJECT, ApiVersion.V1, CARD_PAYMENT, AUTO))
                    .expectEvents(created(), started());
        }

        @Test
        void initWithoutCustomerIsRefusedAndCreatesNothing() {
            PaymentData noCustomer = new PaymentData(CARD, AMOUNT, null, null, null, null, null);
            fixture.givenNoPriorActivity()
                    .when(new InitPaymentCommand(SESSION, PAYMENT, PROJECT, ApiVersion.V1, noCustomer, AUTO))
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
                    .when(new StartPaymentCommand(SESSION, PAYMENT, PROJECT, atStart, AUTO))
                    .expectEvents(started());
        }

        @Test
        void dataGivenAtStartReplacesDataGivenAtCreate() {
            PaymentData draft = new PaymentData(CARD, Money.of(1, "usd"), CUSTOMER, null, null, null, null);
            fixture.given(created(draft))
                    .when(new StartPaymentCommand(SESSION, PAYMENT, PROJECT, CARD_PAYMENT, AUTO))
                    .expectEvents(started());
        }

        @Test
        void startWithoutPaymentDetailsAnywhereIsRefused() {
            fixture.given(created())
                    .when(new StartPaymentCommand(SESSION, PAYMENT, PROJECT,
                            new PaymentData(null, AMOUNT, CUSTOMER, null, null, null, null), AUTO))
                    .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                    .expectExceptionMessage("payment_details is required to start a payment")
                    .expectNoEvents();
        }

        @Test
        void startOfAnotherProjectsSessionIsRefused() {
            fixture.given(created())
                    .when(new StartPaymentCommand(SESSION, PAYMENT, "intruder", CARD_PAYMENT, AUTO))
                    .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                    .expectNoEvents();
        }

        @Test
        void aSecondStartIsRefusedWhileThePaymentRuns() {
            fixture.given(created(), started())
                    .when(new StartPaymentCommand(SESSION, PaymentId.of("pm_8"), PROJECT, CARD_PAYMENT, AUTO))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void aCancelledSessionCannotBeStarted() {
            fixture.given(created(), new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW))
                    .when(new StartPaymentCommand(SESSION, PAYMENT, PROJECT, CARD_PAYMENT, AUTO))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }
    }

    @Nested
    class PrecheckAndConfirmation {

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

    @Nested
    class Cancelling {

        @Test
        void cancelAfterReadyToConfirmCancelsTheSessionAndItsPayment() {
            fixture.given(created(), started(), readyToConfirm())
                    .when(new CancelSessionCommand(SESSION, PROJECT))
                    .expectEvents(new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW));
        }

        @Test
        void aCreatedSessionCanBeCancelled() {
            fixture.given(created())
                    .when(new CancelSessionCommand(SESSION, PROJECT))
                    .expectEvents(new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW));
        }

        @Test
        void cancelBeforeReadyToConfirmIsRefused() {
            fixture.given(created(), started())
                    .when(new CancelSessionCommand(SESSION, PROJECT))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void cancelWhileTheRailProcessesIsRefused() {
            fixture.given(created(), started(), readyToConfirm(), confirmed())
                    .when(new CancelSessionCommand(SESSION, PROJECT))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void cancelOfACancelledSessionIsRefused() {
            fixture.given(created(), new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW))
                    .when(new CancelSessionCommand(SESSION, PROJECT))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void cancelOfAPaidSessionIsRefused() {
            fixture.given(paid())
                    .when(new CancelSessionCommand(SESSION, PROJECT))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void cancelByAnotherProjectIsRefused() {
            fixture.given(created(), started(), readyToConfirm())
                    .when(new CancelSessionCommand(SESSION, "intruder"))
                    .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                    .expectNoEvents();
        }

        @Test
        void cancellingAHeldPaymentReleasesTheHold() {
            fixture.given(held())
                    .when(new CancelSessionCommand(SESSION, PROJECT))
                    .expectEvents(new PaymentHoldReleasedEvent(SESSION, PAYMENT, order(CARD, DELAYED), NOW),
                            new SessionCancelledEvent(SESSION, CANCELLED_BY_PARTNER, NOW));
        }
    }

    @Nested
    class RailAnswers {

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

    @Nested
    class PayerActions {

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

    @Nested
    class UnknownOutcomes {

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

    @Nested
    class DelayedCapture {

        @Test
        void anAuthorizationOfADelayedCapturePartnerHoldsTheMoneyForFiveDays() {
            fixture.given(created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED))
                    .when(answer(new AuthorizationOutcome.Held(AUTH)))
                    .expectEvents(new PaymentAuthorizedEvent(SESSION, PAYMENT, AUTH, NOW))
                    .expectScheduledDeadlineWithName(Duration.ofDays(5), Session.CAPTURE_TIMEOUT);
        }

        @Test
        void captureWithoutAmountDebitsTheWholeHold() {
            fixture.given(held())
                    .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                    .expectEvents(new PaymentCaptureRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, NOW));
        }

        @Test
        void aPartialCaptureDebitsLessAndTheFeeFollowsTheCapturedAmount() {
            Money part = Money.of(4_000, "rub");
            fixture.given(held())
                    .andGivenCommands(new CaptureSessionCommand(SESSION, PROJECT, part))
                    .when(new RecordPaymentCaptureCommand(SESSION, PAYMENT, new TransactionInfo(null, null, null)))
                    // 30 + 4000 * 250 / 10000 = 130
                    .expectEvents(new PaymentSucceededEvent(SESSION, PAYMENT, new TransactionInfo(null, null, null),
                            part, Money.of(130, "rub"), NOW));
        }

        @Test
        void aCaptureAboveTheHoldIsRefused() {
            fixture.given(held())
                    .when(new CaptureSessionCommand(SESSION, PROJECT, Money.of(10_001, "rub")))
                    .expectException(refusedWith(ErrorCode.CAPTURE_AMOUNT_TOO_LARGE))
                    .expectNoEvents();
        }

        @Test
        void aCaptureOfNothingIsRefused() {
            fixture.given(held())
                    .when(new CaptureSessionCommand(SESSION, PROJECT, Money.of(0, "rub")))
                    .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                    .expectNoEvents();
        }

        @Test
        void aCaptureInAnotherCurrencyIsRefused() {
            fixture.given(held())
                    .when(new CaptureSessionCommand(SESSION, PROJECT, Money.of(100, "usd")))
                    .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                    .expectNoEvents();
        }

        @Test
        void aCaptureOfAPaymentNotHeldIsRefused() {
            fixture.given(paid())
                    .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void aSecondCaptureIsRefused() {
            fixture.given(held())
                    .andGivenCommands(new CaptureSessionCommand(SESSION, PROJECT, null))
                    .when(new CaptureSessionCommand(SESSION, PROJECT, null))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void aCaptureByAnotherProjectIsRefused() {
            fixture.given(held())
                    .when(new CaptureSessionCommand(SESSION, "intruder", null))
                    .expectException(refusedWith(ErrorCode.AUTHORIZATION_ERROR))
                    .expectNoEvents();
        }

        @Test
        void withoutCaptureInTimeTheHoldIsReleasedAndTheSessionCancelled() {
            fixture.given(created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED))
                    .andGivenCommands(answer(new AuthorizationOutcome.Held(AUTH)))
                    .whenTimeElapses(Duration.ofDays(5))
                    .expectEvents(new PaymentHoldReleasedEvent(SESSION, PAYMENT, order(CARD, DELAYED), NOW),
                            new SessionCancelledEvent(SESSION, ErrorDetails.of(ErrorCode.CAPTURE_TIMEOUT,
                                    "The partner did not capture in time; the hold is released"), NOW));
        }

        @Test
        void aCapturedPaymentIgnoresItsCaptureDeadline() {
            fixture.given(created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED))
                    .andGivenCommands(answer(new AuthorizationOutcome.Held(AUTH)),
                            new CaptureSessionCommand(SESSION, PROJECT, null))
                    .whenTimeElapses(Duration.ofDays(6))
                    .expectNoEvents();
        }
    }

    @Nested
    class Refunds {

        private RefundRequestedEvent refund(RefundId id, long amount) {
            return new RefundRequestedEvent(SESSION, PAYMENT, id, order(CARD, AUTO), Money.of(amount, "rub"), null, NOW);
        }

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

    /** A capture's or a refund's answer that never came: kept in progress, queried with back-off, never re-sent. */
    @Nested
    class LostAnswersOfCapturesAndRefunds {

        private final ErrorDetails timeout = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer");

        private Object[] captureRequested() {
            return new Object[]{created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED),
                    new PaymentAuthorizedEvent(SESSION, PAYMENT, AUTH, NOW),
                    new PaymentCaptureRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, NOW)};
        }

        private RefundRequestedEvent refund(RefundId id, long amount) {
            return new RefundRequestedEvent(SESSION, PAYMENT, id, order(CARD, AUTO), Money.of(amount, "rub"), null, NOW);
        }

        @Test
        void aCaptureWhoseAnswerIsLostStaysCapturingAndIsQueriedLater() {
            fixture.given(captureRequested())
                    .when(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                    .expectEvents(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW))
                    .expectScheduledDeadlineWithName(Duration.ofSeconds(30), Session.OUTCOME_QUERY);
        }

        @Test
        void whenTheCaptureQueryIsDueTheRailIsAskedAboutTheCapturedAmount() {
            fixture.given(captureRequested())
                    .andGivenCommands(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                    .whenTimeElapses(Duration.ofSeconds(30))
                    .expectEvents(new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT,
                            1, NOW));
        }

        @Test
        void aCaptureStillUnknownIsAskedAgainAfterTwiceTheWait() {
            fixture.given(captureRequested())
                    .andGiven(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW),
                            new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, 1, NOW))
                    .when(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                    .expectEvents(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 1, NOW))
                    .expectScheduledDeadlineWithName(Duration.ofSeconds(60), Session.OUTCOME_QUERY);
        }

        @Test
        void theAnswerToTheCaptureQueryFinishesThePayment() {
            fixture.given(captureRequested())
                    .andGiven(new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 0, NOW),
                            new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, order(CARD, DELAYED), AMOUNT, 1, NOW))
                    .when(new RecordPaymentCaptureCommand(SESSION, PAYMENT, AUTH))
                    .expectEvents(succeeded(AMOUNT));
        }

        @Test
        void aLostCaptureAnswerOfAPaymentNotCapturingIsRefused() {
            fixture.given(held())
                    .when(new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, timeout))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }

        @Test
        void aRefundWhoseAnswerIsLostStaysInProgressAndIsQueriedLater() {
            fixture.given(paid()).andGiven(refund(REFUND, 4_000))
                    .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                    .expectEvents(new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW))
                    .expectScheduledDeadlineWithName(Duration.ofSeconds(30), Session.REFUND_OUTCOME_QUERY);
        }

        @Test
        void whenTheRefundQueryIsDueTheRailIsAskedAboutThatRefund() {
            fixture.given(paid()).andGiven(refund(REFUND, 4_000))
                    .andGivenCommands(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                    .whenTimeElapses(Duration.ofSeconds(30))
                    .expectEvents(new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                            Money.of(4_000, "rub"), 1, NOW));
        }

        @Test
        void aRefundStillUnknownIsAskedAgainAfterTwiceTheWait() {
            fixture.given(paid()).andGiven(refund(REFUND, 4_000),
                            new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW),
                            new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                                    Money.of(4_000, "rub"), 1, NOW))
                    .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                    .expectEvents(new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 1, NOW))
                    .expectScheduledDeadlineWithName(Duration.ofSeconds(60), Session.REFUND_OUTCOME_QUERY);
        }

        @Test
        void aRefundOfUnknownOutcomeStillCountsAgainstWhatIsLeftToRefund() {
            fixture.given(paid()).andGiven(refund(REFUND, 4_000),
                            new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW))
                    .when(new RefundSessionCommand(SESSION, RefundId.of("rf_4"), PROJECT, Money.of(6_001, "rub"), null))
                    .expectException(refusedWith(ErrorCode.REFUND_AMOUNT_TOO_LARGE))
                    .expectNoEvents();
        }

        @Test
        void theAnswerToTheRefundQueryFinishesTheRefund() {
            fixture.given(paid()).andGiven(refund(REFUND, 4_000),
                            new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 0, NOW),
                            new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                                    Money.of(4_000, "rub"), 1, NOW))
                    .when(new RecordRefundOutcomeCommand(SESSION, REFUND, true, null))
                    .expectEvents(new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, NOW));
        }

        @Test
        void aRefundQueryDueAfterTheRefundFinishedAsksNothing() {
            fixture.given(paid()).andGiven(refund(REFUND, 4_000))
                    .andGivenCommands(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout),
                            new RecordRefundOutcomeCommand(SESSION, REFUND, true, null))
                    .whenTimeElapses(Duration.ofMinutes(5))
                    .expectNoEvents();
        }

        @Test
        void aLostRefundAnswerOfARefundNotInProgressIsRefused() {
            fixture.given(paid()).andGiven(refund(REFUND, 500), new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, NOW))
                    .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                    .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                    .expectNoEvents();
        }
    }

    @Nested
    class RecurrentTokens {

        private final PaymentData recurrentCard = new PaymentData(CARD, AMOUNT, CUSTOMER,
                JsonNodeFactory.instance.objectNode().put("recurrent", "true"), null, null, null);

        private Object[] confirmedWith(PaymentData data, PaymentMethod method, PartnerTerms terms) {
            return new Object[]{created(), new PaymentStartedEvent(SESSION, PAYMENT, data, terms, NOW), readyToConfirm(),
                    new PaymentConfirmedEvent(SESSION, PAYMENT, order(method, terms), NOW)};
        }

        @Test
        void aPaymentThatAskedForATokenGrantsItJustBeforeItSucceeds() {
            String token = Session.recurrentTokenOf(PAYMENT);
            fixture.given(confirmedWith(recurrentCard, CARD, AUTO))
                    .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                    .expectEvents(new RecurrentTokenGrantedEvent(SESSION, PAYMENT, token, PROJECT, CARD, NOW),
                            succeeded(AMOUNT));
        }

        @Test
        void aFailedPaymentGrantsNoToken() {
            fixture.given(confirmedWith(recurrentCard, CARD, AUTO))
                    .when(answer(new AuthorizationOutcome.Declined(
                            ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"))))
                    .expectEvents(failed(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"));
        }

        @Test
        void aPaymentThatAskedForNoTokenGrantsNone() {
            fixture.given(confirmedWith(CARD_PAYMENT, CARD, AUTO))
                    .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                    .expectEvents(succeeded(AMOUNT));
        }

        @Test
        void theTokenIsNamedAfterThePaymentSoAReplayNamesItTheSame() {
            org.assertj.core.api.Assertions.assertThat(Session.recurrentTokenOf(PAYMENT))
                    .isEqualTo(Session.recurrentTokenOf(PaymentId.of("pm_7")))
                    .isNotEqualTo(Session.recurrentTokenOf(PaymentId.of("pm_8")))
                    .matches("rt_[0-9a-f]{32}");
        }

        @Test
        void aBindingChargesNothingCostsNoFeeAndShowsTheAccountTokenWhenEnabled() {
            PaymentMethod binding = new FasterPaymentBindingMethod();
            PaymentData data = new PaymentData(binding, Money.of(1, "rub"), CUSTOMER,
                    JsonNodeFactory.instance.objectNode().put("recurrent", true), null, null, null);
            PartnerTerms withAccountToken = new PartnerTerms(CaptureMode.AUTO, FEES, true);
            TransactionInfo info = new TransactionInfo(null, null, null, "bat_1");
            fixture.given(created(), new PaymentStartedEvent(SESSION, PAYMENT, data, withAccountToken, NOW),
                            readyToConfirm(), new PaymentConfirmedEvent(SESSION, PAYMENT,
                                    new RailOrder(binding, Money.of(1, "rub"), CaptureMode.AUTO, null), NOW))
                    .when(answer(new AuthorizationOutcome.Approved(info)))
                    .expectEvents(new RecurrentTokenGrantedEvent(SESSION, PAYMENT, Session.recurrentTokenOf(PAYMENT),
                                    PROJECT, binding, NOW),
                            new PaymentSucceededEvent(SESSION, PAYMENT, info, Money.of(0, "rub"), Money.of(0, "rub"), NOW));
        }

        @Test
        void theAccountTokenIsLeftOutForPartnersWithoutIt() {
            PaymentMethod fps = new FasterPaymentMethod(null);
            TransactionInfo info = new TransactionInfo(null, null, "A1", "bat_1");
            fixture.given(confirmedWith(payment(fps), fps, AUTO))
                    .when(answer(new AuthorizationOutcome.Approved(info)))
                    .expectEvents(new PaymentSucceededEvent(SESSION, PAYMENT, new TransactionInfo(null, null, "A1", null),
                            AMOUNT, FEES.feeFor(AMOUNT), NOW));
        }
    }
}
