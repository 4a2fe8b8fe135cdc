package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code session/create}: a session with nothing started, optionally with payment or payout data for a later start. */
public record CreateSessionCommand(@TargetAggregateIdentifier SessionId sessionId,
                                   String project,
                                   ApiVersion apiVersion,
                                   PaymentData paymentDraft,
                                   PayoutData payoutDraft) {
}
