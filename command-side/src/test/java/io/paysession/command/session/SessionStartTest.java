package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.money.Money;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.StartPaymentCommand;
import org.junit.jupiter.api.Test;

class SessionStartTest extends SessionTestSupport {

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
