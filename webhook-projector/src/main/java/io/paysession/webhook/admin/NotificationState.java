package io.paysession.webhook.admin;

import java.util.Locale;
import java.util.Optional;

/** Where a notification stands in the outbox; the wire name is the lower-case name. */
public enum NotificationState {
    /** Waiting for its next attempt (or for an earlier notification of its session). */
    PENDING,
    /** A partner answered 2xx in time. */
    DELIVERED,
    /** Its retry window ended without a 2xx; sent again only when an operator asks. */
    PARKED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Either case: {@code parked} or {@code PARKED}. */
    public static Optional<NotificationState> parse(String text) {
        for (NotificationState state : values()) {
            if (state.name().equalsIgnoreCase(text)) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }
}
