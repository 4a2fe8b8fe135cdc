package io.paysession.gateway.preload;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.CallableStatementCallback;
import org.springframework.jdbc.core.CallableStatementCreator;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.jdbc.core.StatementCallback;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link JdbcTemplate} that queues every {@code update(sql, args...)} and sends the queued rows of each statement
 * as one JDBC batch when told to (with the driver's {@code reWriteBatchedInserts}, multi-row inserts), so that the
 * modules' own projection and store classes, unchanged, write a bulk load at batch speed. Anything else (a query,
 * a statement of another form) first sends what is queued, in the order the statements were first queued, so a
 * class that reads what it wrote reads it. The caller flushes at points where that order is the order rows depend
 * on each other (an outbox row before its attempt, a vault row before its erasure). An update's answer is 1 (the row is taken as written): the classes
 * the preload drives write rows that do not exist yet, and their callers do not act on the count.
 */
final class BatchingJdbcTemplate extends JdbcTemplate {

    private final Map<String, List<Object[]>> queued = new LinkedHashMap<>();
    private int size;
    private boolean flushing;

    BatchingJdbcTemplate(DataSource dataSource) {
        super(dataSource);
    }

    @Override
    public int update(String sql, Object... args) {
        queued.computeIfAbsent(sql, key -> new ArrayList<>()).add(args.clone());
        size++;
        return 1;
    }

    /** Sends every queued row, statement by statement in the order they were first queued. */
    void flush() {
        if (flushing || size == 0) {
            return;
        }
        flushing = true;
        try {
            for (Map.Entry<String, List<Object[]>> statement : queued.entrySet()) {
                if (!statement.getValue().isEmpty()) {
                    super.batchUpdate(statement.getKey(), statement.getValue());
                }
            }
            queued.clear();
            size = 0;
        } finally {
            flushing = false;
        }
    }

    @Override
    public <T> T execute(ConnectionCallback<T> action) throws DataAccessException {
        flush();
        return super.execute(action);
    }

    @Override
    public <T> T execute(StatementCallback<T> action) throws DataAccessException {
        flush();
        return super.execute(action);
    }

    @Override
    public <T> T execute(PreparedStatementCreator creator, PreparedStatementCallback<T> action)
            throws DataAccessException {
        flush();
        return super.execute(creator, action);
    }

    @Override
    public <T> T execute(CallableStatementCreator creator, CallableStatementCallback<T> action)
            throws DataAccessException {
        flush();
        return super.execute(creator, action);
    }
}
