/**
 * {@code X-PARTNER-IDEMPOTENCY-KEY} (decisions.md section 8). A request with a key claims it in a table shared
 * by every node before anything runs; the answer it gives is stored with the key, and a later request with the
 * same key and the same request gets that answer again instead of running. A key is bound to a fingerprint of
 * its request, so the same key with another request is refused; a key whose request is still running is
 * refused too. Every decision is recorded for the audit. A request whose node died while it ran is recognised
 * by its request id in the event store: its answer is rebuilt from its events, or, if none reached the store,
 * it is run again.
 */
package io.paysession.gateway.idempotency;
