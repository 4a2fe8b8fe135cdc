package io.paysession.command.rails.contract;

import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RefundId;
import io.paysession.command.rails.CaptureOutcome;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract test kit of {@link PaymentRail} (docs/rails.md): every adapter extends this class with the
 * test data its rail (or the rail's test environment) answers as described, and passes every test. The kit
 * talks to a healthy rail: where the contract allows {@code Unknown} (a rail in trouble), the kit expects a
 * final answer, except from {@link #paymentWhoseAnswerIsLost()}.
 * <p>
 * What it checks: calls are idempotent by operation id (a second call, also a concurrent one, gets the first
 * answer, so nothing is charged twice); the first answer to a call or a query binds the id; a query resolves
 * an answer that was lost; answers are of the contract's kinds; refunds never exceed what a payment paid, also
 * when they race; pre-checks and releases may be repeated.
 */
public abstract class PaymentRailContract {

    /** The adapter under test. */
    protected abstract PaymentRail rail();

    /**
     * A payment (new operation id) the rail approves without the payer: {@code Approved} for
     * {@link CaptureMode#AUTO}, {@code Held} for {@link CaptureMode#DELAYED} where the method can hold.
     */
    protected abstract RailOperation approvedPayment(CaptureMode captureMode);

    /** A payment (new operation id) the rail declines at once; empty when its rail declines nothing without the payer. */
    protected abstract Optional<RailOperation> declinedPayment();

    /** A payment (new operation id) that waits for the payer (3-D Secure, an application); empty when none does. */
    protected Optional<RailOperation> paymentNeedingThePayer() {
        return Optional.empty();
    }

    /**
     * A payment (new operation id) that the rail processes but whose answer to the first call is lost
     * ({@code Unknown}); empty when the test environment cannot make one.
     */
    protected Optional<RailOperation> paymentWhoseAnswerIsLost() {
        return Optional.empty();
    }

    /** A refund id never used before. */
    protected abstract RefundId newRefundId();

    /** Whether the rail's payments can be held for a later capture. */
    protected boolean holds() {
        return true;
    }

    protected Duration answerTimeout() {
        return Duration.ofSeconds(30);
    }

    @Test
    public void aSecondAuthorizationOfThePaymentGetsTheFirstAnswerAndChargesNothingMore() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        AuthorizationOutcome first = answer(rail().authorize(payment));
        assertThat(first).isInstanceOf(AuthorizationOutcome.Approved.class);
        assertThat(answer(rail().authorize(payment))).as("the same payment id authorized again").isEqualTo(first);
    }

    @Test
    public void twoConcurrentAuthorizationsOfOnePaymentGetOneAnswer() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        CompletionStage<AuthorizationOutcome> one = rail().authorize(payment);
        CompletionStage<AuthorizationOutcome> other = rail().authorize(payment);
        assertThat(answer(one)).isInstanceOf(AuthorizationOutcome.Approved.class).isEqualTo(answer(other));
    }

    @Test
    public void aQueryAnswersWhatTheAuthorizationAnswered() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        AuthorizationOutcome authorized = answer(rail().authorize(payment));
        assertThat(answer(rail().queryOutcome(payment))).isEqualTo(authorized);
        assertThat(answer(rail().queryOutcome(payment))).as("a query may be repeated").isEqualTo(authorized);
    }

    /** The engine journaled the call and crashed before making it: the query must still settle the id for good. */
    @Test
    public void aQueryAboutAPaymentNeverSentGivesAFinalAnswerThatBindsTheId() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        AuthorizationOutcome queried = answer(rail().queryOutcome(payment));
        assertThat(queried).isInstanceOfAny(AuthorizationOutcome.Approved.class, AuthorizationOutcome.Declined.class);
        assertThat(answer(rail().authorize(payment))).as("a late copy of the call").isEqualTo(queried);
        assertThat(answer(rail().queryOutcome(payment))).isEqualTo(queried);
    }

    @Test
    public void anApprovalOfAPartnerWhoCapturesAtOnceIsPaidAndOfOneWhoCapturesLaterIsHeld() {
        assertThat(answer(rail().authorize(approvedPayment(CaptureMode.AUTO))))
                .isInstanceOfSatisfying(AuthorizationOutcome.Approved.class, approved ->
                        assertThat(approved.transactionInfo()).isNotNull());
        assumeTrue(holds(), "the rail's payments cannot be held");
        assertThat(answer(rail().authorize(approvedPayment(CaptureMode.DELAYED))))
                .isInstanceOfSatisfying(AuthorizationOutcome.Held.class, held ->
                        assertThat(held.transactionInfo()).isNotNull());
    }

    @Test
    public void aDeclineNamesItsReasonWithAContractErrorCodeAndStaysADecline() {
        Optional<RailOperation> payment = declinedPayment();
        assumeTrue(payment.isPresent(), "the rail declines nothing without the payer");
        AuthorizationOutcome declined = answer(rail().authorize(payment.get()));
        assertThat(declined).isInstanceOfSatisfying(AuthorizationOutcome.Declined.class, decline -> {
            assertThat(decline.reason().code()).isNotNull();
            assertThat(decline.reason().description()).isNotBlank();
        });
        assertThat(answer(rail().authorize(payment.get()))).isEqualTo(declined);
        assertThat(answer(rail().queryOutcome(payment.get()))).isEqualTo(declined);
    }

    @Test
    public void aPaymentWaitingForThePayerIsPendingWithOnePayerActionHoweverOftenItIsAsked() {
        Optional<RailOperation> payment = paymentNeedingThePayer();
        assumeTrue(payment.isPresent(), "no payment of this rail waits for the payer");
        AuthorizationOutcome pending = answer(rail().authorize(payment.get()));
        assertThat(pending).isInstanceOf(AuthorizationOutcome.PayerActionRequired.class);
        assertThat(answer(rail().authorize(payment.get()))).as("the same payer action, not a second one")
                .isEqualTo(pending);
        assertThat(answer(rail().queryOutcome(payment.get()))).isEqualTo(pending);
    }

    @Test
    public void anAnswerLostOnTheWayIsFoundByTheQuery() {
        Optional<RailOperation> payment = paymentWhoseAnswerIsLost();
        assumeTrue(payment.isPresent(), "the test environment cannot lose an answer");
        assertThat(answer(rail().authorize(payment.get()))).isInstanceOf(AuthorizationOutcome.Unknown.class);
        AuthorizationOutcome found = answer(rail().queryOutcome(payment.get()));
        assertThat(found).isInstanceOfAny(AuthorizationOutcome.Approved.class, AuthorizationOutcome.Held.class,
                AuthorizationOutcome.Declined.class);
        assertThat(answer(rail().queryOutcome(payment.get()))).isEqualTo(found);
    }

    @Test
    public void aCaptureIsIdempotentByPaymentIdAndItsQueryAnswersIt() {
        assumeTrue(holds(), "the rail's payments cannot be held");
        RailOperation payment = approvedPayment(CaptureMode.DELAYED);
        assertThat(answer(rail().authorize(payment))).isInstanceOf(AuthorizationOutcome.Held.class);
        Money part = part(payment.order(), 3, 4);
        CaptureOutcome captured = answer(rail().capture(payment, part));
        assertThat(captured).isInstanceOf(CaptureOutcome.Captured.class);
        assertThat(answer(rail().capture(payment, part))).isEqualTo(captured);
        assertThat(answer(rail().queryCapture(payment, part))).isEqualTo(captured);
    }

    @Test
    public void aQueryAboutACaptureNeverSentSettlesIt() {
        assumeTrue(holds(), "the rail's payments cannot be held");
        RailOperation payment = approvedPayment(CaptureMode.DELAYED);
        answer(rail().authorize(payment));
        CaptureOutcome queried = answer(rail().queryCapture(payment, payment.order().amount()));
        assertThat(queried).isInstanceOf(CaptureOutcome.Captured.class);
        assertThat(answer(rail().capture(payment, payment.order().amount()))).isEqualTo(queried);
    }

    @Test
    public void refundsAreIdempotentByRefundIdAndNeverExceedWhatThePaymentPaid() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        answer(rail().authorize(payment));
        RefundId first = newRefundId();
        Money most = part(payment.order(), 3, 4);
        assertThat(answer(rail().refund(payment, first, most))).isInstanceOf(RefundOutcome.Accepted.class);
        assertThat(answer(rail().refund(payment, first, most))).as("the same refund id again")
                .isInstanceOf(RefundOutcome.Accepted.class);
        assertThat(answer(rail().queryRefund(payment, first, most))).isInstanceOf(RefundOutcome.Accepted.class);
        Money rest = payment.order().amount().minus(most);
        Money tooMuch = Money.of(rest.minorUnits() + 1, rest.currencyCode());
        assertThat(answer(rail().refund(payment, newRefundId(), tooMuch))).as("more than is left to refund")
                .isInstanceOf(RefundOutcome.Declined.class);
        assertThat(answer(rail().refund(payment, newRefundId(), rest))).as("exactly what is left")
                .isInstanceOf(RefundOutcome.Accepted.class);
        assertThat(answer(rail().refund(payment, newRefundId(), Money.of(1, rest.currencyCode()))))
                .as("nothing is left").isInstanceOf(RefundOutcome.Declined.class);
    }

    @Test
    public void aPartlyCapturedPaymentRefundsNoMoreThanWasCaptured() {
        assumeTrue(holds(), "the rail's payments cannot be held");
        RailOperation payment = approvedPayment(CaptureMode.DELAYED);
        answer(rail().authorize(payment));
        Money captured = part(payment.order(), 1, 2);
        answer(rail().capture(payment, captured));
        Money oneMore = Money.of(captured.minorUnits() + 1, captured.currencyCode());
        assertThat(answer(rail().refund(payment, newRefundId(), oneMore))).isInstanceOf(RefundOutcome.Declined.class);
        assertThat(answer(rail().refund(payment, newRefundId(), captured))).isInstanceOf(RefundOutcome.Accepted.class);
    }

    @Test
    public void racingRefundsOfOnePaymentNeverTogetherExceedWhatItPaid() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        answer(rail().authorize(payment));
        Money twoThirds = part(payment.order(), 2, 3);
        List<CompletionStage<RefundOutcome>> racing = List.of(
                rail().refund(payment, newRefundId(), twoThirds), rail().refund(payment, newRefundId(), twoThirds));
        List<RefundOutcome> outcomes = racing.stream().map(this::answer).toList();
        assertThat(outcomes).filteredOn(RefundOutcome.Accepted.class::isInstance).hasSize(1);
        assertThat(outcomes).filteredOn(RefundOutcome.Declined.class::isInstance).hasSize(1);
    }

    @Test
    public void aQueryAboutARefundNeverSentGivesAFinalAnswerThatBindsTheId() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        answer(rail().authorize(payment));
        RefundId refund = newRefundId();
        Money half = part(payment.order(), 1, 2);
        RefundOutcome queried = answer(rail().queryRefund(payment, refund, half));
        assertThat(queried).isInstanceOfAny(RefundOutcome.Accepted.class, RefundOutcome.Declined.class);
        assertThat(answer(rail().refund(payment, refund, half))).isEqualTo(queried);
    }

    @Test
    public void aPrecheckMovesNoMoneyAndMayBeRepeated() {
        RailOperation payment = approvedPayment(CaptureMode.AUTO);
        PrecheckResult first = answer(rail().precheck(payment));
        assertThat(first).isInstanceOf(PrecheckResult.Passed.class);
        assertThat(answer(rail().precheck(payment))).isEqualTo(first);
        assertThat(answer(rail().authorize(payment))).isInstanceOf(AuthorizationOutcome.Approved.class);
    }

    @Test
    public void aReleaseMayBeRepeated() {
        assumeTrue(holds(), "the rail's payments cannot be held");
        RailOperation payment = approvedPayment(CaptureMode.DELAYED);
        answer(rail().authorize(payment));
        answer(rail().release(payment));
        answer(rail().release(payment));
    }

    /** {@code numerator / denominator} of the order's amount, at least 1. */
    protected static Money part(RailOrder order, int numerator, int denominator) {
        long minor = Math.max(1, order.amount().minorUnits() * numerator / denominator);
        return Money.of(minor, order.amount().currencyCode());
    }

    /** The rail's answer, waited for at most {@link #answerTimeout()}; a failed answer fails the test. */
    protected <T> T answer(CompletionStage<T> stage) {
        return await(() -> stage, answerTimeout());
    }

    static <T> T await(Supplier<CompletionStage<T>> call, Duration timeout) {
        try {
            CompletableFuture<T> future = call.get().toCompletableFuture();
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("the rail gave no answer: " + e, e);
        }
    }
}
