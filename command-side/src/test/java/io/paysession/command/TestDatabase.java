package io.paysession.command;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A PostgreSQL for command-side's tests that need its tables (the rail-call journal, the sandbox's ledger and
 * vault): started once per test JVM, with command-side's own migrations, stopped when the JVM ends.
 */
public final class TestDatabase {

    private static DataSource dataSource;

    private TestDatabase() {
    }

    public static synchronized DataSource dataSource() {
        if (dataSource == null) {
            try {
                EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        postgres.close();
                    } catch (IOException ignored) {
                        // the JVM ends anyway
                    }
                }));
                DataSource started = postgres.getPostgresDatabase();
                Flyway.configure().dataSource(started).locations("classpath:db/migration/command").load().migrate();
                dataSource = started;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dataSource;
    }
}
