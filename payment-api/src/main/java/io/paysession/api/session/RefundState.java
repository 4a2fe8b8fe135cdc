package io.paysession.api.session;

/** Refund statuses of the wire contract (decisions.md section 1). */
public enum RefundState {
    IN_PROGRESS("in_progress"),
    ACCEPTED("accepted"),
    DECLINED("declined"),
    /** The rail's outcome stayed unknown past the first series of queries; not final, still queried. */
    ERROR("error");

    private final String wireStatus;

    RefundState(String wireStatus) {
        this.wireStatus = wireStatus;
    }

    public String wireStatus() {
        return wireStatus;
    }
}
