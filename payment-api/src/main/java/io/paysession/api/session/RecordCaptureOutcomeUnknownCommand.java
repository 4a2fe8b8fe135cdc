package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payment process when the rail's answer to a capture did not come: it is queried later. */
public record RecordCaptureOutcomeUnknownCommand(@TargetAggregateIdentifier SessionId sessionId,
                                                 PaymentId paymentId,
                                                 ErrorDetails reason) {
}
