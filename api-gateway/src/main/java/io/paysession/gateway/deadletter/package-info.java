/**
 * Poison events: the tracking processors ({@code payment-process}, {@code settlement}) try a failing event a few
 * times in a savepoint, then park it with its session's later events in Axon's sequenced dead-letter queue and go
 * on with the other sessions; the administration behind {@code /admin/v1/dead-letters} and the
 * {@code payments.dead_letters.*} meters (docs/security/processing.md).
 */
package io.paysession.gateway.deadletter;
