package io.paysession.api.recurrent;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.SessionId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A payment asks to charge with the token; refused with {@code recurrent_token_inactive} once disabled.
 * The token's project was checked where the payment entered (the gateway resolves a token only for its
 * own project).
 */
public record UseRecurrentTokenCommand(@TargetAggregateIdentifier String token,
                                       SessionId sessionId,
                                       PaymentId paymentId) {
}
