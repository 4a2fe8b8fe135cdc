package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code session/init/payout}, or {@code fps/customer_verification}: a session and its payout in one step. */
public record InitPayoutCommand(@TargetAggregateIdentifier SessionId sessionId,
                                PayoutId payoutId,
                                String project,
                                ApiVersion apiVersion,
                                PayoutData payout,
                                boolean fromBalance) {

    public InitPayoutCommand(SessionId sessionId, PayoutId payoutId, String project, ApiVersion apiVersion,
                             PayoutData payout) {
        this(sessionId, payoutId, project, apiVersion, payout, false);
    }
}
