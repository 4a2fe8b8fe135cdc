package io.paysession.api.recurrent;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.SessionId;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** A payment charged with the token (kept for audit: which payments a token paid). */
@Revision("1")
public record RecurrentTokenUsedEvent(String token, SessionId sessionId, PaymentId paymentId, Instant occurredAt) {
}
