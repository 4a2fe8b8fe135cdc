package io.paysession.api.recurrent;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.SessionId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A payment asks to charge with the token; refused with {@code recurrent_token_inactive} once disabled, and with
 * {@code invalid_request} when the payment is of another project than the token's. The gateway resolves a token only
 * for its own project too; the token checks again, so no path to a charge depends on that one check.
 *
 * @param project the project of the payment's session (the partner whose request started the payment)
 */
public record UseRecurrentTokenCommand(@TargetAggregateIdentifier String token,
                                       SessionId sessionId,
                                       PaymentId paymentId,
                                       String project) {
}
