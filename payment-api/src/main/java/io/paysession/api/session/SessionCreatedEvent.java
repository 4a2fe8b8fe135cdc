package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * A session exists; status {@code created} unless an operation starts in the same command. {@code multi}: a
 * multi-session ({@code session/multi/init}), whose several payments and payouts are confirmed and cancelled together
 * and whose status follows all of them (docs/decisions.md, "Multi-sessions"); sessions stored before it read false.
 */
@Revision("1")
public record SessionCreatedEvent(SessionId sessionId,
                                  String project,
                                  ApiVersion apiVersion,
                                  PaymentData paymentDraft,
                                  PayoutData payoutDraft,
                                  Instant occurredAt,
                                  boolean multi) implements SessionEvent {

    public SessionCreatedEvent(SessionId sessionId, String project, ApiVersion apiVersion, PaymentData paymentDraft,
                               PayoutData payoutDraft, Instant occurredAt) {
        this(sessionId, project, apiVersion, paymentDraft, payoutDraft, occurredAt, false);
    }
}
