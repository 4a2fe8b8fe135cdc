package io.paysession.gateway.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A real PostgreSQL started from the binaries in a Maven dependency, with its data in a directory that
 * survives restarts. The library's defaults are made safe for money: fsync and synchronous commit on,
 * data directory never wiped, and no JVM shutdown hook of its own (Spring closes the server after
 * everything that uses it has stopped).
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    private final EmbeddedPostgres postgres;
    private final Path dataDirectory;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
    }

    public static EmbeddedPostgresServer start(Path dataDirectory, int port) {
        try {
            Files.createDirectories(dataDirectory);
            stopOrphanedServer(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    .setServerConfig("max_connections", "200");
            if (port > 0) {
                builder.setPort(port);
            }
            EmbeddedPostgres postgres = builder.start();
            log.info("Embedded PostgreSQL started on port {} with its data in {}", postgres.getPort(), dataDirectory);
            return new EmbeddedPostgresServer(postgres, dataDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL did not start in " + dataDirectory, e);
        }
    }

    public String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    /**
     * After the JVM was killed, its PostgreSQL keeps running and holds the data directory; the next start
     * would wait and fail. Stop that server if it still runs (and only if it is a postgres process).
     */
    private static void stopOrphanedServer(Path dataDirectory) throws IOException {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(lines.get(0).trim());
        } catch (NumberFormatException e) {
            return;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        boolean isPostgres = process.flatMap(handle -> handle.info().command())
                .map(command -> command.endsWith("/postgres"))
                .orElse(false);
        if (process.isEmpty() || !isPostgres) {
            return;
        }
        log.warn("Stopping the PostgreSQL (pid {}) left running by an earlier process on {}", pid, dataDirectory);
        process.get().destroy();
        try {
            process.get().onExit().get(java.time.Duration.ofSeconds(30).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            process.get().destroyForcibly();
        }
    }

    @Override
    public void close() {
        try {
            postgres.close();
            log.info("Embedded PostgreSQL in {} stopped", dataDirectory);
        } catch (IOException e) {
            log.warn("The embedded PostgreSQL in {} did not stop cleanly", dataDirectory, e);
        }
    }
}
