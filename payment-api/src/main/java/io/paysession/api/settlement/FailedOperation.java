package io.paysession.api.settlement;

import java.time.LocalDate;

/** An operation that failed or was cancelled, with its error code: listed apart, counting for nothing. */
public record FailedOperation(String entryId,
                              String project,
                              LocalDate day,
                              String method,
                              String operation,
                              String sessionId,
                              String operationId,
                              String currency,
                              Long amount,
                              String errorCode,
                              long globalIndex) {
}
