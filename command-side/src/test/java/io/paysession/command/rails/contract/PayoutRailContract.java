package io.paysession.command.rails.contract;

import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.command.rails.PayoutOperation;
import io.paysession.command.rails.PayoutRail;
import io.paysession.command.rails.PrecheckResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract test kit of {@link PayoutRail} (docs/rails.md): every payout adapter extends this class with
 * test data its bank answers as described. A payout is sent at most once per payout id by the engine; the bank
 * must be idempotent by it, bind the first answer (to a send or a query), and answer only approved, declined
 * or unknown (a payout never waits for a payer and is never held).
 */
public abstract class PayoutRailContract {

    protected abstract PayoutRail rail();

    /** A payout (new payout id) the bank pays. */
    protected abstract PayoutOperation approvedPayout();

    /** A payout (new payout id) the bank refuses. */
    protected abstract PayoutOperation declinedPayout();

    /** A payout (new payout id) the bank makes but whose answer to the send is lost; empty when none can be. */
    protected Optional<PayoutOperation> payoutWhoseAnswerIsLost() {
        return Optional.empty();
    }

    protected Duration answerTimeout() {
        return Duration.ofSeconds(30);
    }

    @Test
    public void aSecondSendOfThePayoutGetsTheFirstAnswerAndPaysNothingMore() {
        PayoutOperation payout = approvedPayout();
        AuthorizationOutcome first = answer(rail().send(payout));
        assertThat(first).isInstanceOfSatisfying(AuthorizationOutcome.Approved.class, approved ->
                assertThat(approved.transactionInfo()).isNotNull());
        assertThat(answer(rail().send(payout))).as("the same payout id sent again").isEqualTo(first);
    }

    @Test
    public void twoConcurrentSendsOfOnePayoutGetOneAnswer() {
        PayoutOperation payout = approvedPayout();
        CompletionStage<AuthorizationOutcome> one = rail().send(payout);
        CompletionStage<AuthorizationOutcome> other = rail().send(payout);
        assertThat(answer(one)).isInstanceOf(AuthorizationOutcome.Approved.class).isEqualTo(answer(other));
    }

    @Test
    public void aQueryAnswersWhatTheSendAnswered() {
        PayoutOperation payout = approvedPayout();
        AuthorizationOutcome sent = answer(rail().send(payout));
        assertThat(answer(rail().queryOutcome(payout))).isEqualTo(sent);
        assertThat(answer(rail().queryOutcome(payout))).isEqualTo(sent);
    }

    @Test
    public void aQueryAboutAPayoutNeverSentGivesAFinalAnswerThatBindsTheId() {
        PayoutOperation payout = approvedPayout();
        AuthorizationOutcome queried = answer(rail().queryOutcome(payout));
        assertThat(queried).isInstanceOfAny(AuthorizationOutcome.Approved.class, AuthorizationOutcome.Declined.class);
        assertThat(answer(rail().send(payout))).as("a late copy of the send").isEqualTo(queried);
    }

    @Test
    public void aRefusalNamesItsReasonAndStaysARefusal() {
        PayoutOperation payout = declinedPayout();
        AuthorizationOutcome declined = answer(rail().send(payout));
        assertThat(declined).isInstanceOfSatisfying(AuthorizationOutcome.Declined.class, decline -> {
            assertThat(decline.reason().code()).isNotNull();
            assertThat(decline.reason().description()).isNotBlank();
        });
        assertThat(answer(rail().send(payout))).isEqualTo(declined);
        assertThat(answer(rail().queryOutcome(payout))).isEqualTo(declined);
    }

    @Test
    public void anAnswerLostOnTheWayIsFoundByTheQuery() {
        Optional<PayoutOperation> payout = payoutWhoseAnswerIsLost();
        assumeTrue(payout.isPresent(), "the test environment cannot lose an answer");
        assertThat(answer(rail().send(payout.get()))).isInstanceOf(AuthorizationOutcome.Unknown.class);
        AuthorizationOutcome found = answer(rail().queryOutcome(payout.get()));
        assertThat(found).isInstanceOfAny(AuthorizationOutcome.Approved.class, AuthorizationOutcome.Declined.class);
        assertThat(answer(rail().queryOutcome(payout.get()))).isEqualTo(found);
        assertThat(answer(rail().send(payout.get()))).as("a late copy of the send").isEqualTo(found);
    }

    @Test
    public void aPrecheckMovesNoMoneyAndMayBeRepeated() {
        PayoutOperation payout = approvedPayout();
        PrecheckResult first = answer(rail().precheck(payout));
        assertThat(first).isInstanceOf(PrecheckResult.Passed.class);
        assertThat(answer(rail().precheck(payout))).isEqualTo(first);
        assertThat(answer(rail().send(payout))).isInstanceOf(AuthorizationOutcome.Approved.class);
    }

    protected <T> T answer(CompletionStage<T> stage) {
        return PaymentRailContract.await(() -> stage, answerTimeout());
    }
}
