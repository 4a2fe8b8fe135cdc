package io.paysession.api.error;

import java.util.Objects;

/** The {@code {code, description}} object of the wire format, on a session, an operation or a response. */
public record ErrorDetails(ErrorCode code, String description) {

    public ErrorDetails {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(description, "description");
    }

    public static ErrorDetails of(ErrorCode code, String description) {
        return new ErrorDetails(code, description);
    }
}
