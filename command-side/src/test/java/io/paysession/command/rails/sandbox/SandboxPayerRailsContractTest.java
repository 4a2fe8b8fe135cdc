package io.paysession.command.rails.sandbox;

import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.WalletMethod;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.contract.PaymentRailContract;

import java.util.Optional;

/**
 * The sandbox rails of payer applications pass the rail contract kit. A payment without the payer is a
 * merchant-initiated charge with a bank-application token (bank applications can hold); a wallet payment
 * waits for the payer. These rails decline nothing without the payer and lose no answers.
 */
class SandboxPayerRailsContractTest extends PaymentRailContract {

    private final SandboxRailsOnPostgres sandbox = SandboxRailsOnPostgres.get();
    private final SandboxPayerRails rail = sandbox.payerRails();

    @Override
    protected PaymentRail rail() {
        return rail;
    }

    @Override
    protected RailOperation approvedPayment(CaptureMode captureMode) {
        return payment(new RecurrentMethod("rt_contract", RecurrentMethod.Initiator.MERCHANT, new BankAppMethod()),
                captureMode);
    }

    @Override
    protected Optional<RailOperation> declinedPayment() {
        return Optional.empty();
    }

    @Override
    protected Optional<RailOperation> paymentNeedingThePayer() {
        return Optional.of(payment(new WalletMethod(), CaptureMode.AUTO));
    }

    @Override
    protected RefundId newRefundId() {
        return RefundId.of(sandbox.nextId());
    }

    private RailOperation payment(PaymentMethod method, CaptureMode captureMode) {
        long id = sandbox.nextId();
        return new RailOperation(SessionId.of(id), PaymentId.of(id),
                new RailOrder(method, Money.of(10_000, "rub"), captureMode, null));
    }
}
