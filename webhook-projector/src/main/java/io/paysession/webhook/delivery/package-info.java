/**
 * Sending the outbox: claiming due notifications with a lease, signing and posting them, recording
 * every attempt, retrying by {@link io.paysession.webhook.delivery.RetryPolicy} and parking when the
 * retry window is over. The signature key lives elsewhere, behind {@link io.paysession.webhook.delivery.WebhookSigner}.
 */
package io.paysession.webhook.delivery;
