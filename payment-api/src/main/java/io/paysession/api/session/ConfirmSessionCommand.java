package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code session/confirm}: the partner goes on with the operation that waits for confirmation. */
public record ConfirmSessionCommand(@TargetAggregateIdentifier SessionId sessionId, String project) {
}
