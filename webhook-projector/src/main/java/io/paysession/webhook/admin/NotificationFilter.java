package io.paysession.webhook.admin;

/**
 * Which notifications to list; {@code null} fields do not filter. At most {@code limit} are listed,
 * newest first.
 */
public record NotificationFilter(String sessionId, String project, NotificationState state, int limit) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;

    public NotificationFilter {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT);
        }
    }
}
