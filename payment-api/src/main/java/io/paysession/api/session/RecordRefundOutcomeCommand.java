package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the payment process with the rail's answer to a refund; {@code declineReason} is null when accepted. */
public record RecordRefundOutcomeCommand(@TargetAggregateIdentifier SessionId sessionId,
                                         RefundId refundId,
                                         boolean accepted,
                                         ErrorDetails declineReason) {
}
