/**
 * The processes that drive sessions through their rails ({@code PaymentProcess}, {@code PayoutProcess},
 * {@code RecurrentTokenProcess}): events in, rail calls, commands out. A money-moving call is journaled before it is
 * made and made at most once per operation id ({@code MoneyMovingCalls}); an answer that does not come is an
 * unknown outcome, resolved by the rail's query (docs/rails.md).
 */
package io.paysession.command.process;
