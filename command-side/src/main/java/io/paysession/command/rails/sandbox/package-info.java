/**
 * The sandbox adapters: simulated card acquirer, payer rails (e-wallet, bank and QR applications, instant payments)
 * and payout banks, with latency, asynchronous answers and a ledger that makes them idempotent by operation id, as a
 * real acquirer is; the payer actions behind the hosted pages. Present only with {@code payments.rails=sandbox}.
 */
package io.paysession.command.rails.sandbox;
