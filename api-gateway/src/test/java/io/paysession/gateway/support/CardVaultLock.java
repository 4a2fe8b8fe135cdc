package io.paysession.gateway.support;

import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * Holds a request up at a known point without any hook in the service: a lock on {@code card_vault} (in an open
 * transaction) lets every request run up to the moment it stores a card, where it waits until the lock is closed.
 * A request with a key has claimed its key by then and not yet sent its command.
 */
public final class CardVaultLock implements AutoCloseable {

    private final Connection connection;
    private final JdbcTemplate jdbc;

    private CardVaultLock(Connection connection, JdbcTemplate jdbc) {
        this.connection = connection;
        this.jdbc = jdbc;
    }

    public static CardVaultLock hold(DataSource dataSource) throws SQLException {
        Connection connection = dataSource.getConnection();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("lock table card_vault in share mode");
        }
        return new CardVaultLock(connection, new JdbcTemplate(dataSource));
    }

    /** Waits until some request waits for the lock. */
    public void awaitARequestWaiting() {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> jdbc.queryForObject("""
                select count(*) from pg_locks l join pg_class c on c.oid = l.relation
                where c.relname = 'card_vault' and not l.granted""", Long.class) > 0);
    }

    /** Rolls the transaction back: the lock is gone and the waiting requests go on. */
    @Override
    public void close() throws SQLException {
        try {
            connection.rollback();
        } finally {
            connection.close();
        }
    }
}
