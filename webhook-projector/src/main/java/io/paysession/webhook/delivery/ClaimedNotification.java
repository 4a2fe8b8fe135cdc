package io.paysession.webhook.delivery;

import java.time.Instant;
import java.util.UUID;

/**
 * A notification this node has claimed for one attempt, with the endpoint to send it to.
 *
 * @param attemptsMade     all attempts so far, redeliveries included
 * @param attemptsInWindow attempts since the current retry window opened (of the current redelivery)
 * @param windowStartedAt  when the current retry window opened: creation, or the last redelivery
 * @param redeliveries     redeliveries asked for when it was claimed; an attempt settles the notification
 *                         only if no further one came while it ran
 */
public record ClaimedNotification(UUID id,
                                  String sessionId,
                                  String project,
                                  String type,
                                  String body,
                                  int attemptsMade,
                                  int attemptsInWindow,
                                  Instant windowStartedAt,
                                  int redeliveries,
                                  String url) {
}
