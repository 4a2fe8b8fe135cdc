package io.paysession.api.partner;

/** Answers with an {@code Optional<PartnerView>}. */
public record FindPartnerQuery(String project) {
}
