package io.paysession.command.session;

/**
 * The payload of a session's deadlines: the operation (payment or payout) and the stage it was in when the deadline was set.
 * A deadline whose stage has passed is ignored when it fires, so deadlines need not be cancelled, and a
 * deadline fired twice (a crash after it ran) changes nothing the second time.
 */
public record StageDeadline(String operationId, int stage) {
}
