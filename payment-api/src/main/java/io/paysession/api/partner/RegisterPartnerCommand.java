package io.paysession.api.partner;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Registers a partner (decisions.md section 3). The public key is a PEM the gateway has already parsed. */
public record RegisterPartnerCommand(@TargetAggregateIdentifier PartnerId partnerId,
                                     PartnerSettings settings) {
}
