/**
 * The operator's view of webhooks, behind the admin API: notifications with every attempt, and
 * redelivery of one, of a partner's parked ones, or of a whole session derived again from its events.
 * Redelivered notifications keep their ids and session order; who asked is stored with each redelivery.
 */
package io.paysession.webhook.admin;
