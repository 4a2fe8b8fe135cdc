package io.paysession.webhook.delivery;

import java.time.Instant;
import java.util.UUID;

/** A notification this node has claimed for one attempt, with the endpoint to send it to. */
public record ClaimedNotification(UUID id,
                                  String sessionId,
                                  String project,
                                  String type,
                                  String body,
                                  int attemptsMade,
                                  Instant createdAt,
                                  String url) {
}
