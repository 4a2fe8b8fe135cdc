package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payment process when the rail has pre-checked the payment. */
public record MarkPaymentReadyToConfirmCommand(@TargetAggregateIdentifier SessionId sessionId, PaymentId paymentId) {
}
