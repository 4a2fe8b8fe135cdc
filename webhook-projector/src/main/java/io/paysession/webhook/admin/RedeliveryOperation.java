package io.paysession.webhook.admin;

/** What an operator asked for; stored with each redelivery so that the history shows it. */
public enum RedeliveryOperation {
    /** One notification, by its id. */
    REDELIVER("redeliver"),
    /** Every parked notification of a partner. */
    REDELIVER_PARKED("redeliver_parked"),
    /** Every notification of a session, derived again from its events. */
    RESEND_SESSION("resend_session");

    private final String wireName;

    RedeliveryOperation(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    static RedeliveryOperation fromWireName(String wireName) {
        for (RedeliveryOperation operation : values()) {
            if (operation.wireName.equals(wireName)) {
                return operation;
            }
        }
        throw new IllegalArgumentException("unknown redelivery operation " + wireName);
    }
}
