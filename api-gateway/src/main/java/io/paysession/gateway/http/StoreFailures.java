package io.paysession.gateway.http;

import org.axonframework.common.AxonTransientException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLNonTransientConnectionException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Whether a failure means the store cannot be reached (a retry may well succeed: 503 {@code service_unavailable}),
 * wherever it surfaced and however it was wrapped: Spring's and Axon's transient exceptions, the pool's timeout
 * ({@code SQLTransientConnectionException}), the driver's connection failures (SQL state class 08) and the server's
 * shutdown (57P01 to 57P03), found anywhere in the chain of causes.
 */
public final class StoreFailures {

    private StoreFailures() {
    }

    public static boolean isUnavailable(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable cause = failure; cause != null && seen.put(cause, Boolean.TRUE) == null;
             cause = cause.getCause()) {
            if (cause instanceof DataAccessResourceFailureException || cause instanceof TransientDataAccessException
                    || cause instanceof CannotCreateTransactionException || cause instanceof AxonTransientException
                    || cause instanceof SQLTransientConnectionException
                    || cause instanceof SQLNonTransientConnectionException || cause instanceof SQLRecoverableException
                    || cause instanceof ConnectException) {
                return true;
            }
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().matches("57P0[123]"))) {
                return true;
            }
        }
        return false;
    }
}
