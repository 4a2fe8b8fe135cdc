package io.paysession.webhook.delivery;

/**
 * How one attempt went: the HTTP status if the partner answered in time ({@code null} otherwise) and an
 * error description if the attempt failed.
 */
public record AttemptResult(Integer httpStatus, String error, long latencyMillis) {

    static AttemptResult answered(int status, long latencyMillis) {
        boolean success = status >= 200 && status < 300;
        return new AttemptResult(status, success ? null : "HTTP " + status, latencyMillis);
    }

    static AttemptResult noAnswer(String error, long latencyMillis) {
        return new AttemptResult(null, error, latencyMillis);
    }

    public boolean delivered() {
        return error == null;
    }

    /** For logs: the status if there was one, else the error. */
    public String outcome() {
        return httpStatus != null ? "HTTP " + httpStatus : error;
    }
}
