package io.paysession.command.rails;

import io.paysession.api.session.AuthorizationOutcome;

import java.util.concurrent.CompletionStage;

/**
 * The port of the payout banks (cards, bank accounts, the instant-payment system and its directory of
 * recipients). Answers are asynchronous; an answer is paid ({@code Approved}), refused ({@code Declined})
 * or not known yet ({@code Unknown}: ask again).
 */
public interface PayoutRail {

    CompletionStage<PrecheckResult> precheck(PayoutOperation operation);

    /** Sends the money, or for a recipient verification, looks the recipient up. */
    CompletionStage<AuthorizationOutcome> send(PayoutOperation operation);

    CompletionStage<AuthorizationOutcome> queryOutcome(PayoutOperation operation);
}
