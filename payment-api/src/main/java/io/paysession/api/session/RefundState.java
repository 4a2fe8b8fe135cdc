package io.paysession.api.session;

/** Refund statuses of the wire contract (decisions.md section 1). */
public enum RefundState {
    IN_PROGRESS("in_progress"),
    ACCEPTED("accepted"),
    DECLINED("declined");

    private final String wireStatus;

    RefundState(String wireStatus) {
        this.wireStatus = wireStatus;
    }

    public String wireStatus() {
        return wireStatus;
    }
}
