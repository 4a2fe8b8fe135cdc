package io.paysession.api.session;

import io.paysession.api.partner.PartnerTerms;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** A payment was accepted with complete data; it is {@code in_progress} and the session too. */
@Revision("1")
public record PaymentStartedEvent(SessionId sessionId,
                                  PaymentId paymentId,
                                  PaymentData payment,
                                  PartnerTerms terms,
                                  Instant occurredAt) implements SessionEvent {
}
