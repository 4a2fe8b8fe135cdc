package io.paysession.api.recurrent;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.SessionId;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/** A recurrent token exists, for the project, standing for {@code source}; granted by that session's payment. */
@Revision("1")
public record RecurrentTokenIssuedEvent(String token,
                                        String project,
                                        SessionId sessionId,
                                        PaymentId paymentId,
                                        PaymentMethod source,
                                        Instant occurredAt) {
}
