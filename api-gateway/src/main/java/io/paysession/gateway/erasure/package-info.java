/**
 * Erasure of a customer's personal data by crypto-shredding (docs/erasure.md): the event serializer that encrypts
 * personal data under per-session keys, the admin API's erasure, and the task that derives everything again from the
 * erased events.
 */
package io.paysession.gateway.erasure;
