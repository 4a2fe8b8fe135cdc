package io.paysession.webhook.notification;

/** The webhook types of the spec; the wire name is the {@code type} field of the body. */
public enum WebhookType {
    READY_TO_CONFIRM("ready_to_confirm"),
    ACTION_REQUIRED("action_required"),
    READY_TO_CAPTURE("ready_to_capture"),
    PAYMENT_FINISHED("payment_finished"),
    PAYMENT_REFUNDED("payment_refunded");

    private final String wireName;

    WebhookType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
