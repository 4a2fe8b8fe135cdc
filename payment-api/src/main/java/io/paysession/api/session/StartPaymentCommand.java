package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;
import io.paysession.api.partner.PartnerTerms;

/** {@code session/start/payment}: starts the payment of a created session; its data replaces the draft's. */
public record StartPaymentCommand(@TargetAggregateIdentifier SessionId sessionId,
                                  PaymentId paymentId,
                                  String project,
                                  PaymentData payment,
                                  PartnerTerms terms) {
}
