package io.paysession.api.session;

/**
 * What one session may grow to, so that what every later view, status answer and webhook repeats stays bounded
 * (docs/security/bounds.md). Each refund is repeated in every later {@code payment_refunded} body, so without a cap
 * the storage and work of a session grew with the square of its refunds.
 */
public final class SessionLimits {

    /** The payments and payouts of a multi-session, all together. */
    public static final int MAX_OPERATIONS_PER_SESSION = 10;
    /** Refunds a payment takes, whatever their outcome; the next is {@code refund_limit_exceeded}. */
    public static final int MAX_REFUNDS_PER_PAYMENT = 100;
    /** A refund's {@code metadata}, as compact JSON in UTF-8. */
    public static final int MAX_REFUND_METADATA_BYTES = 2 * 1024;
    /**
     * The largest webhook body: a session made with two requests of 64 KiB (create, then start) and the maximum of
     * refunds, each with the maximum of metadata, stays under it ({@code RefundLimitsEndToEndTest}).
     */
    public static final int MAX_WEBHOOK_BODY_BYTES = 512 * 1024;

    private SessionLimits() {
    }
}
