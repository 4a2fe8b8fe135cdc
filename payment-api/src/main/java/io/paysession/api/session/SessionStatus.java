package io.paysession.api.session;

/** Session statuses of the wire contract (decisions.md section 1). */
public enum SessionStatus {
    /** After {@code session/create}, nothing started yet. */
    CREATED("created"),
    IN_PROGRESS("in_progress"),
    ACCEPTED("accepted"),
    CANCELLED("cancelled"),
    /** The outcome is unknown to the service; not final. */
    ERROR("error");

    private final String wireName;

    SessionStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
