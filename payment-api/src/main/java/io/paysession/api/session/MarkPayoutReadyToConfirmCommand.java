package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payout process when the bank has pre-checked the payout. */
public record MarkPayoutReadyToConfirmCommand(@TargetAggregateIdentifier SessionId sessionId, PayoutId payoutId) {
}
