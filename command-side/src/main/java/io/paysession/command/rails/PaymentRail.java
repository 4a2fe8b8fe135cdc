package io.paysession.command.rails;

import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.RefundId;

import java.util.concurrent.CompletionStage;

/**
 * The port of a payment rail (card acquirer, e-wallet, bank and QR applications, instant-payment system): the
 * contract a provider implements for its acquirer, written out in docs/rails.md and checked by the contract
 * test kit ({@code PaymentRailContract} in command-side's test jar).
 * <p>
 * In short: every call names its operation (the payment id for authorize and capture, the refund id for a
 * refund), and a rail must be idempotent by that id: a second call with the same id moves no money and gets
 * the answer of the first, and the first answer a rail gives for an id, to a call or to a query, binds it.
 * The engine in return calls {@link #authorize}, {@link #capture} and {@link #refund} at most once per
 * operation id; when it does not know the outcome of that one call (no answer within
 * {@code payments.rails.answer-timeout}, an exception, a crash before the answer was recorded) it only asks
 * again with the matching query, with back-off, until the answer is final. {@link #precheck} and
 * {@link #release} move no money and may be called again for the same operation. Calls answer
 * asynchronously, as real rails do; an answer that needs the payer comes later through a callback that
 * records it as a command. The Session aggregate never sees a rail.
 */
public interface PaymentRail {

    boolean handles(PaymentMethod method);

    /** Checks a payment before the partner is asked to confirm it. Moves no money; may be repeated. */
    CompletionStage<PrecheckResult> precheck(RailOperation operation);

    /**
     * Processes a confirmed payment: paid ({@code Approved}), authorized and held ({@code Held}, delayed
     * capture), declined, waiting for the payer ({@code PayerActionRequired}: pending, the verdict comes by
     * callback), or unknown. Called at most once per payment id.
     */
    CompletionStage<AuthorizationOutcome> authorize(RailOperation operation);

    /**
     * What became of {@link #authorize} for this payment id: the answer bound to it (still pending while the
     * payer has not acted), {@code Unknown} while the rail cannot tell, or, for an id the rail never received,
     * a final answer that then binds the id (see docs/rails.md). Safe to repeat.
     */
    CompletionStage<AuthorizationOutcome> queryOutcome(RailOperation operation);

    /** Debits {@code amount} of a hold and releases the rest. Called at most once per payment id. */
    CompletionStage<CaptureOutcome> capture(RailOperation operation, Money amount);

    /** What became of {@link #capture} for this payment id; like {@link #queryOutcome}. Safe to repeat. */
    CompletionStage<CaptureOutcome> queryCapture(RailOperation operation, Money amount);

    /** Gives a hold back to the payer. Moves no money to anyone; may be repeated. */
    CompletionStage<Void> release(RailOperation operation);

    /**
     * Pays {@code amount} of a paid payment back; the refund id is the operation id. Called at most once per
     * refund id. A rail declines a refund that would take the refunds of the payment over what was paid.
     */
    CompletionStage<RefundOutcome> refund(RailOperation operation, RefundId refundId, Money amount);

    /** What became of {@link #refund} for this refund id; like {@link #queryOutcome}. Safe to repeat. */
    CompletionStage<RefundOutcome> queryRefund(RailOperation operation, RefundId refundId, Money amount);
}
