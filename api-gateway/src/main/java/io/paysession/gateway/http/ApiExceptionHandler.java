package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.gateway.idempotency.IdempotencyFilter;
import jakarta.servlet.http.HttpServletRequest;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.common.AxonTransientException;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Maps every failure to the error body of the wire contract. Bad input is a 4xx with a code and a
 * description; only a fault of the service itself is a 500, and its body never carries a stack trace.
 */
@RestControllerAdvice
public class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);
    static final String UNAVAILABLE = "The service is temporarily unavailable; retry";

    @ExceptionHandler(HttpException.class)
    ResponseEntity<ObjectNode> httpRefusal(HttpException e) {
        return ApiResponses.error(e.httpStatus(), e.code(), e.description());
    }

    @ExceptionHandler(PaymentsException.class)
    ResponseEntity<ObjectNode> refusal(PaymentsException e) {
        return ApiResponses.error(e.code(), e.description());
    }

    @ExceptionHandler(AggregateNotFoundException.class)
    ResponseEntity<ObjectNode> sessionNotFound(AggregateNotFoundException e) {
        return ApiResponses.error(ErrorCode.SESSION_NOT_FOUND, "Session not found");
    }

    /**
     * How a refusal arrives when the command ran in another process: a command bus that answers from there sends
     * the {@link ErrorDetails} the command side's {@code ExceptionWrappingHandlerInterceptor} put on the exception
     * (the refusal itself stays behind), and the answer is the one a local refusal gets.
     */
    @ExceptionHandler(CommandExecutionException.class)
    ResponseEntity<ObjectNode> remoteRefusal(CommandExecutionException e) {
        if (e.getCause() instanceof PaymentsException refusal) {
            return refusal(refusal);
        }
        return e.getDetails()
                .filter(details -> details instanceof ErrorDetails)
                .map(details -> (ErrorDetails) details)
                .map(details -> ApiResponses.error(details.code(), details.description()))
                .orElseGet(() -> internalError(e));
    }

    /** A retry may well succeed, so the answer is not kept with an idempotency key. */
    @ExceptionHandler(ConcurrencyException.class)
    ResponseEntity<ObjectNode> concurrentChange(ConcurrencyException e, HttpServletRequest request) {
        request.setAttribute(IdempotencyFilter.RETRYABLE_ANSWER, Boolean.TRUE);
        return ApiResponses.error(ErrorCode.SESSION_WRONG_STATE,
                "The session was changed by a concurrent request; read its status and retry");
    }

    @ExceptionHandler({AxonTransientException.class, DataAccessResourceFailureException.class,
            TransientDataAccessException.class, CannotCreateTransactionException.class})
    ResponseEntity<ObjectNode> unavailable(Exception e) {
        log.warn("Store unavailable: {}", e.toString());
        return ApiResponses.error(ErrorCode.SERVICE_UNAVAILABLE, UNAVAILABLE);
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ObjectNode> wrongMethod(HttpRequestMethodNotSupportedException e) {
        return ApiResponses.error(405, ErrorCode.INVALID_REQUEST, "Method " + e.getMethod() + " is not allowed here");
    }

    /** A body that Spring itself reads ({@code @RequestBody}) through the limit of {@link RequestBodyLimitFilter}. */
    @ExceptionHandler({HttpMessageNotReadableException.class, RequestBodies.BodyTooLargeException.class})
    ResponseEntity<ObjectNode> unreadableBody(Exception e, HttpServletRequest request) {
        if (RequestBodyLimitFilter.causedByTooLargeBody(e)) {
            return ApiResponses.error(413, ErrorCode.INVALID_REQUEST, RequestBodies.tooLarge(request));
        }
        return ApiResponses.error(400, ErrorCode.INVALID_REQUEST, "The body cannot be read");
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ObjectNode> unknownPath(NoResourceFoundException e) {
        return ApiResponses.error(404, ErrorCode.INVALID_REQUEST, "Unknown method /" + e.getResourcePath());
    }

    /** Whatever else failed; a store that cannot be reached, however the failure was wrapped, is still a 503. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ObjectNode> internalError(Exception e) {
        if (StoreFailures.isUnavailable(e)) {
            return unavailable(e);
        }
        log.error("Request failed inside the service", e);
        return ApiResponses.error(ErrorCode.INTERNAL_ERROR, "Internal error");
    }
}
