/**
 * Partner webhooks (decisions.md section 10). The {@code notification} package turns session events
 * into signed-to-be notifications stored in an outbox table, in the same transaction as the event
 * processor's token, so that a notification is neither lost nor created twice. The {@code delivery}
 * package sends them from that outbox: signed at send time, in event order per session, retried with
 * growing intervals and parked when the retry window ends, with one partner's failing endpoint never
 * holding up another partner. Several nodes may share the outbox; claims with leases keep them apart.
 * The {@code admin} package lets an operator read every attempt and send notifications again.
 */
package io.paysession.webhook;
