package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payout process with the bank's answer: approved (paid), declined, or unknown. */
public record RecordPayoutOutcomeCommand(@TargetAggregateIdentifier SessionId sessionId, PayoutId payoutId, AuthorizationOutcome outcome) {
}
