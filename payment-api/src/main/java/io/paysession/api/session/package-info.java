/**
 * The session's messages: commands, events (records with {@code @Revision}), ids, payment and payout methods and
 * data, the outcomes rails answer with, and the limits partners see.
 */
package io.paysession.api.session;
