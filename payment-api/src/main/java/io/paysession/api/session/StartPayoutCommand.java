package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code session/start/payout}: starts the payout of a created session; its data replaces the draft's. */
public record StartPayoutCommand(@TargetAggregateIdentifier SessionId sessionId, PayoutId payoutId, String project,
                                 PayoutData payout, boolean fromBalance) {

    public StartPayoutCommand(SessionId sessionId, PayoutId payoutId, String project, PayoutData payout) {
        this(sessionId, payoutId, project, payout, false);
    }
}
