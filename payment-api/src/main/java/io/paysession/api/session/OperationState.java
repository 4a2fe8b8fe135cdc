package io.paysession.api.session;

/**
 * Where a payment or payout is in its life. Finer than the four wire statuses: several states show as
 * {@code pending}, because the partner only needs to know that the service waits for something.
 */
public enum OperationState {
    /** Accepted; the rail is checking it before asking the partner to confirm. */
    IN_PROGRESS("in_progress"),
    /** {@code ready_to_confirm} sent; waits for {@code session/confirm} or {@code session/cancel}. */
    AWAITING_CONFIRMATION("pending"),
    /** Confirmed; the rail is processing it. */
    PROCESSING("pending"),
    /** {@code action_required} sent; waits for the payer (3-D Secure, wallet, bank or QR application). */
    AWAITING_PAYER_ACTION("pending"),
    /** The rail did not answer in time; the outcome is unknown until the rail is asked again. Not a failure. */
    OUTCOME_UNKNOWN("in_progress"),
    /**
     * The outcome stayed unknown past the last query of the first series: shown {@code failed} with the session in
     * {@code error}. Not final: the rail is still queried, and its answer moves the operation on.
     */
    ERROR("failed"),
    /** Held (delayed capture), {@code ready_to_capture} sent; waits for {@code session/capture} or cancel. */
    AWAITING_CAPTURE("pending"),
    /** Capture requested; the rail is debiting the hold. Shown as succeeded while the session is in progress. */
    CAPTURING("succeeded"),
    SUCCEEDED("succeeded"),
    FAILED("failed");

    private final String wireStatus;

    OperationState(String wireStatus) {
        this.wireStatus = wireStatus;
    }

    public String wireStatus() {
        return wireStatus;
    }

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED;
    }
}
