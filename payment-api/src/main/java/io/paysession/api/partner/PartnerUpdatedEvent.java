package io.paysession.api.partner;

import org.axonframework.serialization.Revision;

import java.time.Instant;

@Revision("1")
public record PartnerUpdatedEvent(PartnerId partnerId, PartnerSettings settings, Instant updatedAt) {
}
