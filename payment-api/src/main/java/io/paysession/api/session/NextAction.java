package io.paysession.api.session;

/** What the service waits for from the partner; shown as {@code next_action}. */
public enum NextAction {
    CONFIRM("confirm"),
    CAPTURE("capture");

    private final String wireName;

    NextAction(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
