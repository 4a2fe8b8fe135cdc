package io.paysession.api.partner;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Replaces a registered partner's key, webhook URL, capture mode and fees. */
public record UpdatePartnerCommand(@TargetAggregateIdentifier PartnerId partnerId,
                                   PartnerSettings settings) {
}
