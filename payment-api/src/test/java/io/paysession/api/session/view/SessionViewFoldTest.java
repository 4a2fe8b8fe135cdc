package io.paysession.api.session.view;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.ApiVersion;
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
