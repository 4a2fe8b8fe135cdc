package io.paysession.gateway.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 15: the embedded PostgreSQL requires a password (SCRAM), generated once and kept owner-only beside
 * the data directory, listens on loopback only, and a data directory made before (initdb {@code trust}) is
 * switched to passwords on start, its data intact. A server started without its watchdog (standing in for an
 * external PostgreSQL) stops cleanly too.
 */
class EmbeddedPostgresPasswordTest {

    private final Path root = newDirectory();
    private EmbeddedPostgresServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void aNewDataDirectoryRequiresTheGeneratedPasswordFromLoopbackOnly() throws Exception {
        Path data = root.resolve("postgres");
        server = EmbeddedPostgresServer.start(data, 0);

        Path passwordFile = root.resolve("postgres.password");
        assertThat(Files.getPosixFilePermissions(passwordFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        String password = Files.readString(passwordFile, StandardCharsets.UTF_8).trim();
        assertThat(password).matches("[0-9a-f]{48}").isEqualTo(server.password());

        assertRefusedWithout(password, server.jdbcUrl());
        try (Connection connection = connect(server.jdbcUrl(), password);
             Statement statement = connection.createStatement()) {
            assertThat(single(statement, "show listen_addresses")).isEqualTo("localhost");
            assertThat(single(statement, "select rolpassword from pg_authid where rolname = 'postgres'"))
                    .startsWith("SCRAM-SHA-256$");
        }
        assertThat(rules(data)).isNotEmpty().allMatch(rule -> rule.endsWith("scram-sha-256"));
    }

    @Test
    void aServerStartedWithoutItsWatchdogStopsAndFreesItsDataDirectoryForTheNextStart() throws Exception {
        Path data = root.resolve("postgres");
        EmbeddedPostgresServer unsupervised = EmbeddedPostgresServer.start(data, 0, false);
        String url = unsupervised.jdbcUrl();

        unsupervised.close();

        assertThatThrownBy(() -> connect(url, unsupervised.password()).close()).isInstanceOf(SQLException.class);
        server = EmbeddedPostgresServer.start(data, 0);
        try (Connection connection = connect(server.jdbcUrl(), server.password());
             Statement statement = connection.createStatement()) {
            assertThat(single(statement, "select 1")).isEqualTo("1");
        }
    }

    @Test
    void aDataDirectoryThatTrustedEveryLocalUserIsSwitchedToPasswordsWithItsDataIntact() throws Exception {
        Path data = root.resolve("postgres");
        try (EmbeddedPostgres before = EmbeddedPostgres.builder().setDataDirectory(data)
                .setCleanDataDirectory(false).setRegisterShutdownHook(false).start();
             Connection connection = before.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("create table kept (id int)");
            statement.execute("insert into kept values (42)");
        }
        assertThat(rules(data)).anyMatch(rule -> rule.endsWith("trust"));

        server = EmbeddedPostgresServer.start(data, 0);
        String password = server.password();
        assertRefusedWithout(password, server.jdbcUrl());
        try (Connection connection = connect(server.jdbcUrl(), password);
             Statement statement = connection.createStatement()) {
            assertThat(single(statement, "select id from kept")).isEqualTo("42");
        }
        assertThat(rules(data)).isNotEmpty().allMatch(rule -> rule.endsWith("scram-sha-256"));

        // and it starts again as it is now
        server.close();
        server = EmbeddedPostgresServer.start(data, 0);
        assertRefusedWithout(password, server.jdbcUrl());
        try (Connection connection = connect(server.jdbcUrl(), password);
             Statement statement = connection.createStatement()) {
            assertThat(single(statement, "select id from kept")).isEqualTo("42");
        }
    }

    /** The rules of pg_hba.conf, without comments and blank lines. */
    private static java.util.List<String> rules(Path data) throws java.io.IOException {
        return Files.readAllLines(data.resolve("pg_hba.conf"), StandardCharsets.UTF_8).stream().map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    }

    private static void assertRefusedWithout(String password, String url) {
        assertThatThrownBy(() -> DriverManager.getConnection(url).close()).as("no password").isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> connect(url, password + "0").close()).as("a wrong password")
                .isInstanceOf(SQLException.class).hasMessageContaining("password authentication failed");
    }

    private static Connection connect(String url, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("password", password);
        return DriverManager.getConnection(url, properties);
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }

    private static Path newDirectory() {
        try {
            return Files.createTempDirectory("payments-pgpass");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
