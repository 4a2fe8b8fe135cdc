package io.paysession.api.error;

/**
 * A broken rule, carrying the error code the partner gets. Thrown by command handlers (wrong state,
 * wrong project, missing data) and by the HTTP boundary (validation). Declines are never exceptions:
 * they are events.
 */
public class PaymentsException extends RuntimeException {

    private final ErrorCode code;

    public PaymentsException(ErrorCode code, String description) {
        super(description);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    public String description() {
        return getMessage();
    }

    public ErrorDetails details() {
        return ErrorDetails.of(code, getMessage());
    }

    public static PaymentsException invalidRequest(String description) {
        return new PaymentsException(ErrorCode.INVALID_REQUEST, description);
    }

    public static PaymentsException wrongState(String description) {
        return new PaymentsException(ErrorCode.SESSION_WRONG_STATE, description);
    }
}
