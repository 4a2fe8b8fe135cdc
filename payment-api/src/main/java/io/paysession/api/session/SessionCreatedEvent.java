package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** A session exists; status {@code created} unless an operation starts in the same command. */
@Revision("1")
public record SessionCreatedEvent(SessionId sessionId,
                                  String project,
                                  ApiVersion apiVersion,
                                  PaymentData paymentDraft,
                                  PayoutData payoutDraft,
                                  Instant occurredAt) implements SessionEvent {
}
