package io.paysession.api.session;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The session's personal data keys were erased by {@code erasureId}: the session records it and forgets its copy. */
public record ErasePersonalDataCommand(@TargetAggregateIdentifier SessionId sessionId, String erasureId) {
}
