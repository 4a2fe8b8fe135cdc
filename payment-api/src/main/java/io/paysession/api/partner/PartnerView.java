package io.paysession.api.partner;

import java.time.Instant;

/** A registered partner as the read side knows it. */
public record PartnerView(String project, PartnerSettings settings, Instant registeredAt, Instant updatedAt) {
}
