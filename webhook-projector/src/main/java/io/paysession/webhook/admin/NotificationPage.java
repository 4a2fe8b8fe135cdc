package io.paysession.webhook.admin;

import java.util.List;

/** Notifications listed newest first; {@code hasMore} when the limit cut the list. */
public record NotificationPage(List<NotificationRecord> notifications, boolean hasMore) {
}
