package io.paysession.webhook.notification;

/**
 * Published (as a Spring application event) after a transaction that added notifications, or made
 * them due again, has committed, so that a dispatcher in this process sends them at once instead of
 * at its next poll.
 */
public record NotificationsStored() {
}
