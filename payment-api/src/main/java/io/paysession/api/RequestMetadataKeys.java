package io.paysession.api;

/**
 * The metadata keys of the request behind a command, which the gateway puts on the command and Axon copies
 * onto every event the command causes (a correlation data provider): the endpoint, the partner's project,
 * the idempotency key (when sent) and the request id (also answered as {@code X-Request-Id}). Every module
 * that writes or reads them names them here, so the audit history reads what the gateway wrote.
 */
public final class RequestMetadataKeys {

    public static final String ENDPOINT = "endpoint";
    public static final String PROJECT = "project";
    public static final String IDEMPOTENCY_KEY = "idempotencyKey";
    public static final String REQUEST_ID = "requestId";

    private RequestMetadataKeys() {
    }

    /** Every key above, in that order: what the gateway copies from a command onto its events. */
    public static String[] all() {
        return new String[]{ENDPOINT, PROJECT, IDEMPOTENCY_KEY, REQUEST_ID};
    }
}
