package io.paysession.command.rails;

import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.TransactionInfo;

import java.util.concurrent.CompletionStage;

/**
 * The port of a payment rail (card acquirer, e-wallet, bank and QR applications, instant-payment system).
 * Calls answer asynchronously, as real rails do; an answer that needs the payer comes later through a
 * callback that records it as a command. Sandbox rails and real adapters sit behind this interface; the
 * Session aggregate never sees either.
 */
public interface PaymentRail {

    boolean handles(PaymentMethod method);

    /** Checks a payment before the partner is asked to confirm it. */
    CompletionStage<PrecheckResult> precheck(RailOperation operation);

    /** Processes a confirmed payment: paid, held, declined, waiting for the payer, or unknown. */
    CompletionStage<AuthorizationOutcome> authorize(RailOperation operation);

    /** Asks again about a payment whose outcome was unknown. */
    CompletionStage<AuthorizationOutcome> queryOutcome(RailOperation operation);

    /** Debits {@code amount} of a hold and releases the rest. */
    CompletionStage<TransactionInfo> capture(RailOperation operation, Money amount);

    /** Gives a hold back to the payer. */
    CompletionStage<Void> release(RailOperation operation);

    CompletionStage<RefundOutcome> refund(RailOperation operation, RefundId refundId, Money amount);
}
