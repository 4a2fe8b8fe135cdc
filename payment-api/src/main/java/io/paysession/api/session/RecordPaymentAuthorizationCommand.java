package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payment process with the rail's answer to an authorization. */
public record RecordPaymentAuthorizationCommand(@TargetAggregateIdentifier SessionId sessionId,
                                                PaymentId paymentId,
                                                AuthorizationOutcome outcome) {
}
