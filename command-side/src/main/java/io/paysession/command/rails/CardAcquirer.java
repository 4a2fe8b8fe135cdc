package io.paysession.command.rails;

import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.command.vault.CardNumber;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The port of a card acquirer. Calls answer asynchronously, as real rails do. A real adapter and the
 * sandbox both sit behind this interface; the Session aggregate never sees either.
 */
public interface CardAcquirer {

    /** Checks a card payment before the partner is asked to confirm it (card data present and usable). */
    CompletionStage<PrecheckResult> precheck(CardOperation operation);

    /** Authorizes (and, with automatic capture, captures) a confirmed card payment. */
    CompletionStage<AuthorizationOutcome> authorize(CardOperation operation);

    /**
     * A reason to refuse a card when the request arrives, for cards this acquirer cannot route at all;
     * empty when it can take the card.
     */
    default Optional<String> refusesAtIntake(CardNumber number) {
        return Optional.empty();
    }
}
