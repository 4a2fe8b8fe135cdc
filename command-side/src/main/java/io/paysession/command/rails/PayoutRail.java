package io.paysession.command.rails;

import io.paysession.api.session.AuthorizationOutcome;

import java.util.concurrent.CompletionStage;

/**
 * The port of the payout banks (cards, bank accounts, the instant-payment system and its directory of
 * recipients); the contract is written out in docs/rails.md and checked by {@code PayoutRailContract}.
 * Answers are asynchronous; an answer is paid ({@code Approved}), refused ({@code Declined}) or not known
 * yet ({@code Unknown}: the engine asks again with {@link #queryOutcome}). The payout id is the operation id:
 * a bank must be idempotent by it, and the engine calls {@link #send} at most once per payout id.
 */
public interface PayoutRail {

    /** Checks a payout before the partner is asked to confirm it. Moves no money; may be repeated. */
    CompletionStage<PrecheckResult> precheck(PayoutOperation operation);

    /** Sends the money, or for a recipient verification, looks the recipient up. At most once per payout id. */
    CompletionStage<AuthorizationOutcome> send(PayoutOperation operation);

    /** What became of {@link #send} for this payout id; for an id never received, a final answer that binds it. */
    CompletionStage<AuthorizationOutcome> queryOutcome(PayoutOperation operation);
}
