package io.paysession.api.recurrent;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.SessionId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;

/** Sent by the token process when a session has granted a token: the token begins its own life. */
public record IssueRecurrentTokenCommand(@TargetAggregateIdentifier String token,
                                         String project,
                                         SessionId sessionId,
                                         PaymentId paymentId,
                                         PaymentMethod source,
                                         Instant grantedAt) {
}
