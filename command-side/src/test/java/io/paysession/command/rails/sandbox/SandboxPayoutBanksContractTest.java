package io.paysession.command.rails.sandbox;

import io.paysession.api.money.Money;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.PayoutOperation;
import io.paysession.command.rails.PayoutRail;
import io.paysession.command.rails.contract.PayoutRailContract;

import java.util.Optional;

/** The sandbox payout banks pass the payout rail contract kit, with the test cards of decisions.md section 4. */
class SandboxPayoutBanksContractTest extends PayoutRailContract {

    private final SandboxRailsOnPostgres sandbox = SandboxRailsOnPostgres.get();
    private final SandboxPayoutBanks rail = sandbox.payoutBanks();

    @Override
    protected PayoutRail rail() {
        return rail;
    }

    @Override
    protected PayoutOperation approvedPayout() {
        return payout("4242424242424242");
    }

    @Override
    protected PayoutOperation declinedPayout() {
        return payout("4000000000009995");
    }

    @Override
    protected Optional<PayoutOperation> payoutWhoseAnswerIsLost() {
        return Optional.of(payout(SandboxTestCards.RAIL_TIMEOUT));
    }

    private PayoutOperation payout(String number) {
        CardMethod card = sandbox.card(number);
        long id = sandbox.nextId();
        return new PayoutOperation(SessionId.of(id), PayoutId.of(id), new PayoutData(new PayoutMethod.Card(
                "tokenized_card", card.vaultToken(), card.brand(), card.bin(), card.last4()),
                Money.of(5_000, "rub"), null, null, null));
    }
}
