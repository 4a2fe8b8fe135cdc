package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** {@code session/capture}: debit the hold, all of it when {@code amount} is {@code null}. */
public record CaptureSessionCommand(@TargetAggregateIdentifier SessionId sessionId, String project, Money amount) {
}
