package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.SessionCancelledEvent;
import org.junit.jupiter.api.Test;

class SessionCancelTest extends SessionTestSupport {

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
