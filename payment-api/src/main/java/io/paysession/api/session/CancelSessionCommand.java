package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code session/cancel}: the partner aborts the session. */
public record CancelSessionCommand(@TargetAggregateIdentifier SessionId sessionId, String project) {
}
