package io.paysession.command.rails;

import io.paysession.api.money.Money;

/**
 * What a card rail is asked to process: the operation id (the rail's idempotency key: asking twice for
 * the same operation must not charge twice), the vault token of the card and the amount.
 */
public record CardOperation(String operationId, String vaultToken, Money amount) {
}
