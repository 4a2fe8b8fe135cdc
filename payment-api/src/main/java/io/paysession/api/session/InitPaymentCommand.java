package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;
import io.paysession.api.partner.PartnerTerms;

/** {@code session/init/payment}: a session and its payment in one step. */
public record InitPaymentCommand(@TargetAggregateIdentifier SessionId sessionId,
                                 PaymentId paymentId,
                                 String project,
                                 ApiVersion apiVersion,
                                 PaymentData payment,
                                 PartnerTerms terms) {
}
