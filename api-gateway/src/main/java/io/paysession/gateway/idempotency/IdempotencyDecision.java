package io.paysession.gateway.idempotency;

/** What was decided about a request that carried an idempotency key; recorded for the audit. */
public enum IdempotencyDecision {
    /** The key was new (or forgotten): the request ran, and its answer is kept with the key. */
    FIRST_USE,
    /** The same request again: the kept answer was returned, nothing ran. */
    REPLAY,
    /** Another request with a key already used: refused with {@code idempotency_key_params_mismatch}. */
    PARAMS_MISMATCH,
    /** The key's first request was still running: refused with {@code idempotency_key_already_exists}. */
    ALREADY_RUNNING,
    /** The key's first request died with its node after its command was stored: its answer was rebuilt from its events. */
    RECOVERED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
