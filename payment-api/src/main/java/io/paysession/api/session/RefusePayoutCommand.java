package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payout process when the bank refuses the payout at its pre-check. */
public record RefusePayoutCommand(@TargetAggregateIdentifier SessionId sessionId, PayoutId payoutId, ErrorDetails reason) {
}
