package io.paysession.webhook.delivery;

/**
 * How one attempt went: the HTTP status if the partner answered in time ({@code null} otherwise) and an
 * error description if the attempt failed. {@code notSent}: the service did not try the partner's endpoint
 * at all, by its own rule or state (a refused destination, an unusable URL, no signature, shutting down); such
 * a failure says nothing about the endpoint's health.
 */
public record AttemptResult(Integer httpStatus, String error, long latencyMillis, boolean notSent) {

    static AttemptResult answered(int status, long latencyMillis) {
        boolean success = status >= 200 && status < 300;
        return new AttemptResult(status, success ? null : "HTTP " + status, latencyMillis, false);
    }

    static AttemptResult noAnswer(String error, long latencyMillis) {
        return new AttemptResult(null, error, latencyMillis, false);
    }

    static AttemptResult notSent(String error, long latencyMillis) {
        return new AttemptResult(null, error, latencyMillis, true);
    }

    public boolean delivered() {
        return error == null;
    }

    /**
     * Whether the endpoint failed this attempt, as its circuit breaker counts: no answer in time (time-out,
     * refused connection, TLS or name error), a 5xx or a 429. Any other answer, 4xx included, shows an endpoint
     * that is up; an attempt not sent says nothing.
     */
    public boolean endpointFailed() {
        if (notSent) {
            return false;
        }
        return httpStatus == null || httpStatus >= 500 || httpStatus == 429;
    }

    /** For logs: the status if there was one, else the error. */
    public String outcome() {
        return httpStatus != null ? "HTTP " + httpStatus : error;
    }
}
