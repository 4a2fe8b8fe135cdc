package io.paysession.command.rails;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.SessionId;

/**
 * What a rail is asked to process: the payment (its id is the rail's idempotency key: asking twice about
 * the same payment must not charge twice), its session (for the rail's later callbacks), and the order.
 */
public record RailOperation(SessionId sessionId, PaymentId paymentId, RailOrder order) {
}
