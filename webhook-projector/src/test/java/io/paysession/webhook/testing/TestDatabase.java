package io.paysession.webhook.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.eventstore.jdbc.JdbcEventPositions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One embedded PostgreSQL 17 for all tests of the module, migrated with this module's migrations
 * only; tests empty the tables with {@link #clear()}.
 */
public final class TestDatabase {

    private static TestDatabase instance;

    private final HikariDataSource dataSource;
    private final JdbcTemplate jdbc;
    private final DataSourceTransactionManager transactionManager;

    private TestDatabase(EmbeddedPostgres postgres) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        config.setMaximumPoolSize(16);
        dataSource = new HikariDataSource(config);
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration/webhook").load().migrate();
        jdbc = new JdbcTemplate(dataSource);
        transactionManager = new DataSourceTransactionManager(dataSource);
    }

    public static synchronized TestDatabase get() {
        if (instance == null) {
            try {
                instance = new TestDatabase(EmbeddedPostgres.builder().start());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    public DataSourceTransactionManager transactionManager() {
        return transactionManager;
    }

    /**
     * The JDBC store's {@link EventPositions} on this database, reading a stand-in {@code domain_event_entry} a test
     * creates with the two columns it reads ({@code global_index}, {@code event_identifier}).
     */
    public EventPositions jdbcEventPositions() {
        return new JdbcEventPositions(new SpringDataSourceConnectionProvider(dataSource), EventSchema.builder()
                .eventTable("domain_event_entry").globalIndexColumn("global_index")
                .eventIdentifierColumn("event_identifier").build());
    }

    public void clear() {
        jdbc.execute("TRUNCATE webhook_attempt, webhook_redelivery, webhook_notification, webhook_endpoint");
    }
}
