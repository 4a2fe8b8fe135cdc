package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payment process when the rail refuses a payment at its pre-check, before confirmation. */
public record RefusePaymentCommand(@TargetAggregateIdentifier SessionId sessionId,
                                   PaymentId paymentId,
                                   ErrorDetails reason) {
}
