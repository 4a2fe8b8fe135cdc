package io.paysession.benchmark;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * A PostgreSQL started by the benchmark and handed to the service as an external URL, to run the
 * external-database path where no PostgreSQL server is installed. Same binaries and the same durability
 * settings as the service's embedded default (fsync, synchronous commit, full page writes on), so the two
 * runs differ only in who owns the server.
 */
final class ExternalPostgres implements AutoCloseable {

    private final EmbeddedPostgres postgres;
    private final Path dataDirectory;

    private ExternalPostgres(EmbeddedPostgres postgres, Path dataDirectory) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
    }

    static ExternalPostgres start(Path dataDirectory) {
        try {
            Files.createDirectories(dataDirectory);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(true)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    .setServerConfig("max_connections", "200")
                    .start();
            return new ExternalPostgres(postgres, dataDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("the external PostgreSQL did not start in " + dataDirectory, e);
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
    }

    OptionalLong pid() {
        try {
            return OptionalLong.of(Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid"),
                    StandardCharsets.US_ASCII).get(0).trim()));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            System.err.println("the external PostgreSQL did not stop cleanly: " + e.getMessage());
        }
    }
}
