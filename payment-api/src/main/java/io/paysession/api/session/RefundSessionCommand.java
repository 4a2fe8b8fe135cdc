package io.paysession.api.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.money.Money;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code session/refund}: refund the payment, all of what is left when {@code amount} is {@code null}. */
public record RefundSessionCommand(@TargetAggregateIdentifier SessionId sessionId,
                                   RefundId refundId,
                                   String project,
                                   Money amount,
                                   JsonNode metadata) {
}
