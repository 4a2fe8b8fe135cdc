package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;

/**
 * Sent by the recurrent-token process when the partner disabled a token: the session whose payment granted it
 * shows it finished at {@code finishedAt}. Idempotent: a grant already finished is left as it is.
 */
public record EndRecurrentGrantCommand(@TargetAggregateIdentifier SessionId sessionId,
                                       PaymentId paymentId,
                                       String token,
                                       Instant finishedAt) {
}
