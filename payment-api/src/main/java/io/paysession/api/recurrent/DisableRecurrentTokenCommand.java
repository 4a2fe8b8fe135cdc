package io.paysession.api.recurrent;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code recurrent/disable}: no payment may use the token any more. Disabling twice changes nothing. */
public record DisableRecurrentTokenCommand(@TargetAggregateIdentifier String token, String project) {
}
