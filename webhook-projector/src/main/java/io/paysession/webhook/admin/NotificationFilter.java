package io.paysession.webhook.admin;

import java.time.Instant;

/**
 * Which notifications to list; {@code null} fields do not filter. {@code createdFrom} is inclusive,
 * {@code createdTo} exclusive. At most {@code limit} are listed, newest first, or oldest first when
 * {@code oldestFirst} (a reader following the notifications as they come).
 */
public record NotificationFilter(String sessionId, String project, NotificationState state, String type,
                                 Instant createdFrom, Instant createdTo, boolean oldestFirst, int limit) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;

    public NotificationFilter {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT);
        }
    }

    public NotificationFilter(String sessionId, String project, NotificationState state, int limit) {
        this(sessionId, project, state, null, null, null, false, limit);
    }
}
