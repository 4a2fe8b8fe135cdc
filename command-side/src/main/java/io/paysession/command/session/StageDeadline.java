package io.paysession.command.session;

import io.paysession.api.session.PaymentId;

/**
 * The payload of a session's deadlines: the payment and the stage it was in when the deadline was set.
 * A deadline whose stage has passed is ignored when it fires, so deadlines need not be cancelled, and a
 * deadline fired twice (a crash after it ran) changes nothing the second time.
 */
public record StageDeadline(PaymentId paymentId, int stage) {
}
