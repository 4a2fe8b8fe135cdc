package io.paysession.api.partner;

import org.axonframework.serialization.Revision;

import java.time.Instant;

@Revision("1")
public record PartnerRegisteredEvent(PartnerId partnerId, PartnerSettings settings, Instant registeredAt) {
}
