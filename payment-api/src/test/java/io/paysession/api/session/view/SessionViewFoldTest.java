package io.paysession.api.session.view;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentOutcomeOverdueEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RefundOutcomeOverdueEvent;
import io.paysession.api.session.ChargebackOpenedEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefundState;
import io.paysession.api.session.NextAction;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionStatus;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.paysession.api.session.SessionFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionViewFoldTest {

    private static final ErrorDetails CONFIRM_TIMEOUT = ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "Not confirmed in time");

    @Test
    void successfulPaymentLeavesTheSessionAcceptedWithFeeAndTransactionInfo() {
        SessionView view = SessionViewFold.fold(successfulPayment(ApiVersion.V1));

        assertThat(view.id()).isEqualTo("ps_1");
        assertThat(view.project()).isEqualTo(PROJECT);
        assertThat(view.status()).isEqualTo(SessionStatus.ACCEPTED);
        assertThat(view.nextAction()).isNull();
        assertThat(view.confirmedAt()).isEqualTo(at(3));
        assertThat(view.error()).isNull();
        assertThat(view.createdAt()).isEqualTo(T0);
        assertThat(view.payments()).singleElement().satisfies(payment -> {
            assertThat(payment.id()).isEqualTo("pm_42");
            assertThat(payment.state()).isEqualTo(OperationState.SUCCEEDED);
            assertThat(payment.createdAt()).isEqualTo(at(1));
            assertThat(payment.finishedAt()).isEqualTo(at(4));
            assertThat(payment.transactionInfo()).isEqualTo(TRANSACTION);
            assertThat(payment.merchantFee()).isEqualTo(FEE);
            assertThat(payment.error()).isNull();
            assertThat(payment.data().amount()).isEqualTo(AMOUNT);
        });
    }

    @Test
    void refundsLeaveTheSessionAcceptedAndThePaymentSucceededEachRefundCarryingItsOwnProgress() {
        RailOrder order = new RailOrder(VISA, AMOUNT, CaptureMode.AUTO, null);
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1));
        events.add(new RefundRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_1"), order, Money.of(3_000, "eur"),
                null, at(5)));
        SessionView oneRunning = SessionViewFold.fold(events);
        events.add(new RefundRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_2"), order, Money.of(2_000, "eur"),
                null, at(6)));
        events.add(new RefundAcceptedEvent(SESSION, PAYMENT, RefundId.of("rf_1"), at(7)));
        SessionView firstDoneSecondRunning = SessionViewFold.fold(events);
        events.add(new RefundDeclinedEvent(SESSION, PAYMENT, RefundId.of("rf_2"), DECLINE, at(8)));
        SessionView bothDone = SessionViewFold.fold(events);

        for (SessionView view : List.of(oneRunning, firstDoneSecondRunning, bothDone)) {
            assertThat(view.status()).isEqualTo(SessionStatus.ACCEPTED);
            assertThat(view.payment("pm_42").get().state()).isEqualTo(OperationState.SUCCEEDED);
        }
        assertThat(oneRunning.payment("pm_42").get().refunds()).extracting(RefundView::state)
                .containsExactly(RefundState.IN_PROGRESS);
        assertThat(firstDoneSecondRunning.payment("pm_42").get().refunds()).extracting(RefundView::state)
                .containsExactly(RefundState.ACCEPTED, RefundState.IN_PROGRESS);
        assertThat(bothDone.payment("pm_42").get().refunds()).extracting(RefundView::state)
                .containsExactly(RefundState.ACCEPTED, RefundState.DECLINED);
    }

    @Test
    void aViewStoredInProgressDuringARefundByAnEarlierVersionIsAcceptedAgainAtTheRefundsNextEvent() {
        RailOrder order = new RailOrder(VISA, AMOUNT, CaptureMode.AUTO, null);
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1));
        events.add(new RefundRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_1"), order, Money.of(3_000, "eur"),
                null, at(5)));
        SessionView stored = SessionViewFold.fold(events).withStatus(SessionStatus.IN_PROGRESS);

        SessionView after = SessionViewFold.apply(stored, new RefundAcceptedEvent(SESSION, PAYMENT,
                RefundId.of("rf_1"), at(6)), events.size());

        assertThat(after.status()).isEqualTo(SessionStatus.ACCEPTED);
    }

    @Test
    void anOverdueOutcomeShowsThePaymentFailedAndTheSessionInErrorUntilTheRailsAnswerMovesItOn() {
        ErrorDetails unknown = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "still unknown");
        ErrorDetails sessionError = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "not final");
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1).subList(0, 4));
        events.add(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, unknown, 5, at(4)));
        events.add(new PaymentOutcomeOverdueEvent(SESSION, PAYMENT, unknown, sessionError, at(5)));
        SessionView inError = SessionViewFold.fold(events);

        assertThat(inError.status()).isEqualTo(SessionStatus.ERROR);
        assertThat(inError.error()).isEqualTo(sessionError);
        PaymentView payment = inError.payment("pm_42").get();
        assertThat(payment.state()).isEqualTo(OperationState.ERROR);
        assertThat(payment.state().wireStatus()).isEqualTo("failed");
        assertThat(payment.state().isFinal()).isFalse();
        assertThat(payment.error()).isEqualTo(unknown);
        assertThat(payment.finishedAt()).isNull();

        events.add(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, unknown, 6, at(6)));
        SessionView stillUnknown = SessionViewFold.fold(events);
        assertThat(stillUnknown.status()).as("unknown again: still in error").isEqualTo(SessionStatus.ERROR);
        assertThat(stillUnknown.payment("pm_42").get().state()).isEqualTo(OperationState.ERROR);

        events.add(new PaymentSucceededEvent(SESSION, PAYMENT, TRANSACTION, AMOUNT, FEE, at(6)));
        SessionView paid = SessionViewFold.fold(events);
        assertThat(paid.status()).isEqualTo(SessionStatus.ACCEPTED);
        assertThat(paid.error()).isNull();
        assertThat(paid.payment("pm_42").get().error()).isNull();
        assertThat(paid.payment("pm_42").get().state()).isEqualTo(OperationState.SUCCEEDED);
    }

    @Test
    void anOverdueRefundIsInErrorWithoutFinishingAndItsAnswerFinishesIt() {
        RailOrder order = new RailOrder(VISA, AMOUNT, CaptureMode.AUTO, null);
        ErrorDetails unknown = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "still unknown");
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1));
        events.add(new RefundRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_1"), order, Money.of(3_000, "eur"),
                null, at(5)));
        events.add(new RefundOutcomeOverdueEvent(SESSION, PAYMENT, RefundId.of("rf_1"), unknown, at(6)));
        RefundView inError = SessionViewFold.fold(events).payment("pm_42").get().refunds().get(0);
        assertThat(inError.state()).isEqualTo(RefundState.ERROR);
        assertThat(inError.state().wireStatus()).isEqualTo("error");
        assertThat(inError.error()).isEqualTo(unknown);
        assertThat(inError.finishedAt()).isNull();
        assertThat(SessionViewFold.fold(events).status()).isEqualTo(SessionStatus.ACCEPTED);

        events.add(new RefundAcceptedEvent(SESSION, PAYMENT, RefundId.of("rf_1"), at(7)));
        RefundView accepted = SessionViewFold.fold(events).payment("pm_42").get().refunds().get(0);
        assertThat(accepted.state()).isEqualTo(RefundState.ACCEPTED);
        assertThat(accepted.error()).isNull();
        assertThat(accepted.finishedAt()).isEqualTo(at(7));
    }

    @Test
    void aChargebackIsARefundMarkedAsOneInProgressUntilWithheldAndTheSessionStaysAccepted() {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V2));
        events.add(new ChargebackOpenedEvent(SESSION, PAYMENT, RefundId.of("rf_5"), Money.of(10_000, "eur"), "fraud",
                at(5)));
        SessionView opened = SessionViewFold.fold(events);
        events.add(new RefundAcceptedEvent(SESSION, PAYMENT, RefundId.of("rf_5"), at(6)));
        SessionView withheld = SessionViewFold.fold(events);

        assertThat(opened.status()).isEqualTo(SessionStatus.ACCEPTED);
        assertThat(opened.payment("pm_42").get().refunds()).singleElement().satisfies(refund -> {
            assertThat(refund.chargeback()).isTrue();
            assertThat(refund.state()).isEqualTo(RefundState.IN_PROGRESS);
        });
        assertThat(withheld.payment("pm_42").get().refunds().get(0).state()).isEqualTo(RefundState.ACCEPTED);
        assertThat(withheld.payment("pm_42").get().refunds().get(0).chargeback()).isTrue();
        com.fasterxml.jackson.databind.JsonNode shown = SessionRepresentation.render(withheld, ApiVersion.V2)
                .path("payment_list").path(0).path("refunds").path(0);
        assertThat(shown.path("is_chargeback").asBoolean(false)).isTrue();
        assertThat(shown.path("status").asText()).isEqualTo("accepted");
        assertThat(shown.has("metadata")).isFalse();
    }

    @Test
    void aMultiSessionsStatusFollowsAllItsOperations() {
        PaymentId second = PaymentId.of("pm_43");
        RailOrder order = new RailOrder(VISA, AMOUNT, CaptureMode.AUTO, null);
        List<SessionEvent> events = new ArrayList<>(List.of(
                new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V2, PaymentData.EMPTY, PayoutData.EMPTY, T0, true),
                started(PAYMENT, json("\"a\""), at(1)), started(second, json("\"b\""), at(1)),
                new PaymentReadyToConfirmEvent(SESSION, PAYMENT, at(2))));
        SessionView oneReady = SessionViewFold.fold(events);
        assertThat(oneReady.status()).isEqualTo(SessionStatus.IN_PROGRESS);
        assertThat(oneReady.nextAction()).as("the other still waits for its pre-check").isNull();

        events.add(new PaymentReadyToConfirmEvent(SESSION, second, at(3)));
        assertThat(SessionViewFold.fold(events).nextAction()).isEqualTo(NextAction.CONFIRM);

        events.add(new PaymentConfirmedEvent(SESSION, PAYMENT, order, at(4)));
        events.add(new PaymentConfirmedEvent(SESSION, second, order, at(4)));
        events.add(new PaymentSucceededEvent(SESSION, PAYMENT, TRANSACTION, AMOUNT, FEE, at(5)));
        SessionView onePaid = SessionViewFold.fold(events);
        assertThat(onePaid.status()).as("one paid, one still running").isEqualTo(SessionStatus.IN_PROGRESS);
        assertThat(onePaid.nextAction()).isNull();

        List<SessionEvent> bothPaid = new ArrayList<>(events);
        bothPaid.add(new PaymentSucceededEvent(SESSION, second, TRANSACTION, AMOUNT, FEE, at(6)));
        assertThat(SessionViewFold.fold(bothPaid).status()).isEqualTo(SessionStatus.ACCEPTED);
        assertThat(SessionViewFold.fold(bothPaid).error()).isNull();

        events.add(new PaymentFailedEvent(SESSION, second, DECLINE, SESSION_DECLINE, at(6)));
        SessionView mixed = SessionViewFold.fold(events);
        assertThat(mixed.status()).as("not all succeeded").isEqualTo(SessionStatus.CANCELLED);
        assertThat(mixed.error().code()).isEqualTo(ErrorCode.SESSION_CANCELLED);
        assertThat(mixed.error().description()).contains("pm_43 (declined_by_issuer_bank)").doesNotContain("pm_42");
        assertThat(mixed.payment("pm_42").get().state()).isEqualTo(OperationState.SUCCEEDED);
    }

    @Test
    void readyToConfirmWaitsForThePartnersConfirmation() {
        SessionView view = SessionViewFold.fold(successfulPayment(ApiVersion.V1).subList(0, 3));

        assertThat(view.status()).isEqualTo(SessionStatus.IN_PROGRESS);
        assertThat(view.nextAction()).isEqualTo(NextAction.CONFIRM);
        assertThat(view.confirmedAt()).isNull();
        assertThat(view.payment("pm_42")).get().extracting(PaymentView::state).isEqualTo(OperationState.AWAITING_CONFIRMATION);
        assertThat(view.payment("pm_42").get().finishedAt()).isNull();
    }

    @Test
    void theViewBeforeASequenceFoldsOnlyTheEventsBeforeIt() {
        List<SessionEvent> events = successfulPayment(ApiVersion.V1);
        List<DomainEventMessage<?>> stream = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            stream.add(new GenericDomainEventMessage<>("Session", "ps_1", i, events.get(i)));
        }

        assertThat(SessionViewFold.before(stream.iterator(), 0)).isNull();
        assertThat(SessionViewFold.before(stream.iterator(), 3))
                .isEqualTo(SessionViewFold.fold(events.subList(0, 3)));
        assertThat(SessionViewFold.before(stream.iterator(), 3).nextAction()).isEqualTo(NextAction.CONFIRM);
        assertThat(SessionViewFold.before(stream.iterator(), Long.MAX_VALUE)).isEqualTo(SessionViewFold.fold(events));
    }

    @Test
    void declineCancelsTheSessionWithTheSessionErrorAndFailsThePaymentWithItsOwn() {
        SessionView view = SessionViewFold.fold(declinedPayment(ApiVersion.V1));

        assertThat(view.status()).isEqualTo(SessionStatus.CANCELLED);
        assertThat(view.error()).isEqualTo(SESSION_DECLINE);
        assertThat(view.nextAction()).isNull();
        assertThat(view.payments()).singleElement().satisfies(payment -> {
            assertThat(payment.state()).isEqualTo(OperationState.FAILED);
            assertThat(payment.error()).isEqualTo(DECLINE);
            assertThat(payment.finishedAt()).isEqualTo(at(4));
            assertThat(payment.merchantFee()).isNull();
        });
    }

    @Test
    void cancellingTheSessionFailsAPaymentThatWaitsForConfirmation() {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1).subList(0, 3));
        events.add(new SessionCancelledEvent(SESSION, CONFIRM_TIMEOUT, at(1200)));

        SessionView view = SessionViewFold.fold(events);

        assertThat(view.status()).isEqualTo(SessionStatus.CANCELLED);
        assertThat(view.error()).isEqualTo(CONFIRM_TIMEOUT);
        assertThat(view.nextAction()).isNull();
        PaymentView payment = view.payment("pm_42").orElseThrow();
        assertThat(payment.state()).isEqualTo(OperationState.FAILED);
        assertThat(payment.error()).isEqualTo(CONFIRM_TIMEOUT);
        assertThat(payment.finishedAt()).isEqualTo(at(1200));
    }

    @Test
    void cancellingTheSessionLeavesFinishedPaymentsAlone() {
        List<SessionEvent> declined = declinedPayment(ApiVersion.V1);
        List<SessionEvent> events = new ArrayList<>(declined.subList(0, 2));
        events.add(started(PAYMENT_2, json("\"second\""), at(1)));
        events.addAll(declined.subList(2, 5));
        events.add(new SessionCancelledEvent(SESSION, CONFIRM_TIMEOUT, at(1200)));

        SessionView view = SessionViewFold.fold(events);

        PaymentView finished = view.payment("pm_42").orElseThrow();
        assertThat(finished.state()).isEqualTo(OperationState.FAILED);
        assertThat(finished.error()).isEqualTo(DECLINE);
        assertThat(finished.finishedAt()).isEqualTo(at(4));
        PaymentView unfinished = view.payment("pm_7").orElseThrow();
        assertThat(unfinished.state()).isEqualTo(OperationState.FAILED);
        assertThat(unfinished.error()).isEqualTo(CONFIRM_TIMEOUT);
        assertThat(unfinished.finishedAt()).isEqualTo(at(1200));
    }

    @Test
    void versionIsTheSequenceNumberAndUpdateTimeTheTimeOfTheLastEvent() {
        List<SessionEvent> events = successfulPayment(ApiVersion.V1);
        for (int length = 1; length <= events.size(); length++) {
            SessionView view = SessionViewFold.fold(events.subList(0, length));
            assertThat(view.version()).isEqualTo(length - 1);
            assertThat(view.updatedAt()).isEqualTo(events.get(length - 1).occurredAt());
            assertThat(view.createdAt()).isEqualTo(T0);
        }
        SessionView applied = SessionViewFold.apply(SessionViewFold.fold(events.subList(0, 2)),
                new PaymentReadyToConfirmEvent(SESSION, PAYMENT, at(30)), 41);
        assertThat(applied.version()).isEqualTo(41);
        assertThat(applied.updatedAt()).isEqualTo(at(30));
    }

    @Test
    void streamThatDoesNotBeginWithSessionCreatedIsRefused() {
        List<SessionEvent> headless = successfulPayment(ApiVersion.V1).subList(1, 5);

        assertThatThrownBy(() -> SessionViewFold.fold(headless))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ps_1");
    }

    @Test
    void aSecondCreationInTheMiddleOfAStreamIsRefused() {
        List<SessionEvent> events = new java.util.ArrayList<>(successfulPayment(ApiVersion.V1).subList(0, 3));
        events.add(created(ApiVersion.V2));

        assertThatThrownBy(() -> SessionViewFold.fold(events))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("created a second time");
    }
}
