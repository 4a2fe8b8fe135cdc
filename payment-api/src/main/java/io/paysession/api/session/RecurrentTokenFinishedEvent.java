package io.paysession.api.session;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The recurrent token this session's payment granted was disabled ({@code recurrent/disable}): the payment shows
 * it with {@code is_active} false and {@code finished_at}. Recorded on the session so that its view, its audit
 * history and a replay show the token's state without reading another aggregate; the token's own stream holds the
 * disabling ({@code RecurrentTokenDisabledEvent}).
 */
@Revision("1")
public record RecurrentTokenFinishedEvent(SessionId sessionId,
                                          PaymentId paymentId,
                                          String token,
                                          Instant occurredAt) implements SessionEvent {
}
