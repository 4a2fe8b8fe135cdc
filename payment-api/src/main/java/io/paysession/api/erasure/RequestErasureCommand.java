package io.paysession.api.erasure;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records an erasure ({@link ErasureRequestedEvent}) in its own stream, named by its id. */
public record RequestErasureCommand(@TargetAggregateIdentifier String erasureId, String project, int sessions,
                                    String requestedBy) {
}
