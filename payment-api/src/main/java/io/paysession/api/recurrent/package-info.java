/**
 * Recurrent tokens: issued by a payment that asked for one, used by later payments of the same project,
 * disabled by the partner. A token lives in its own aggregate and outlives the session that created it.
 */
package io.paysession.api.recurrent;
