package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payment process when the rail has debited the hold. */
public record RecordPaymentCaptureCommand(@TargetAggregateIdentifier SessionId sessionId, PaymentId paymentId, TransactionInfo transactionInfo) {
}
