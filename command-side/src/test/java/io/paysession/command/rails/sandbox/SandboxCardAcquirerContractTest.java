package io.paysession.command.rails.sandbox;

import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.contract.PaymentRailContract;

import java.util.Optional;

/** The sandbox card acquirer passes the rail contract kit, with the test cards of decisions.md section 4. */
class SandboxCardAcquirerContractTest extends PaymentRailContract {

    private final SandboxRailsOnPostgres sandbox = SandboxRailsOnPostgres.get();
    private final SandboxCardAcquirer rail = sandbox.cardAcquirer();

    @Override
    protected PaymentRail rail() {
        return rail;
    }

    @Override
    protected RailOperation approvedPayment(CaptureMode captureMode) {
        return payment("4242424242424242", captureMode);
    }

    @Override
    protected Optional<RailOperation> declinedPayment() {
        return Optional.of(payment("4000000000000002", CaptureMode.AUTO));
    }

    @Override
    protected Optional<RailOperation> paymentNeedingThePayer() {
        return Optional.of(payment(SandboxTestCards.THREE_D_SECURE, CaptureMode.AUTO));
    }

    @Override
    protected Optional<RailOperation> paymentWhoseAnswerIsLost() {
        return Optional.of(payment(SandboxTestCards.RAIL_TIMEOUT, CaptureMode.AUTO));
    }

    @Override
    protected RefundId newRefundId() {
        return RefundId.of(sandbox.nextId());
    }

    private RailOperation payment(String card, CaptureMode captureMode) {
        long id = sandbox.nextId();
        return new RailOperation(SessionId.of(id), PaymentId.of(id),
                new RailOrder(sandbox.card(card), Money.of(10_000, "rub"), captureMode, null));
    }
}
