package io.paysession.gateway.eventstore.jdbc;

import org.axonframework.common.jdbc.PersistenceExceptionResolver;

import java.sql.SQLException;

/**
 * Tells Axon's event store that an append failed on a unique key, which for {@code domain_event_entry}
 * means another node appended the same sequence number of the same aggregate first. Axon's default JDBC
 * resolver only recognizes {@code SQLIntegrityConstraintViolationException}, which the PostgreSQL driver
 * never throws (it reports SQL state 23505), so without this a lost race between nodes is an
 * {@code EventStoreException}, a 500, instead of a {@code ConcurrencyException}.
 */
public final class UniqueViolations implements PersistenceExceptionResolver {

    static final String UNIQUE_VIOLATION = "23505";

    @Override
    public boolean isDuplicateKeyViolation(Exception exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && anyIsUniqueViolation(sql)) {
                return true;
            }
        }
        return false;
    }

    /** A batch insert reports the row's own failure as the next exception of the batch's. */
    private static boolean anyIsUniqueViolation(SQLException exception) {
        for (SQLException next = exception; next != null; next = next.getNextException()) {
            if (UNIQUE_VIOLATION.equals(next.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
