/**
 * Which session events give which webhooks ({@link io.paysession.webhook.notification.NotificationRules}),
 * and the event processor that writes them to the outbox with the session as it was at that event.
 */
package io.paysession.webhook.notification;
