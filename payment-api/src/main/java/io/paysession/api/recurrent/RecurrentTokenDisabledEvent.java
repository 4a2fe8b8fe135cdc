package io.paysession.api.recurrent;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/** The partner disabled the token; no later payment may use it. */
@Revision("1")
public record RecurrentTokenDisabledEvent(String token, Instant occurredAt) {
}
