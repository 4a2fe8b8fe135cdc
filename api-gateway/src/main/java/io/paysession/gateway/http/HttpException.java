package io.paysession.gateway.http;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;

/** A refusal at the HTTP edge whose status differs from its code's usual one (413, 404 of a path, 405). */
public class HttpException extends PaymentsException {

    private final int httpStatus;

    public HttpException(int httpStatus, ErrorCode code, String description) {
        super(code, description);
        this.httpStatus = httpStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
