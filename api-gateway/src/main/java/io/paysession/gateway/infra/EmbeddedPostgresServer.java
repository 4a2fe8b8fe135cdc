package io.paysession.gateway.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
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
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final int attachedPort;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory, FileChannel lockChannel,
                                   FileLock lock, int attachedPort) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.attachedPort = attachedPort;
    }

    /**
     * Starts the server of {@code dataDirectory}, holding its lock file for as long as it runs. The lock
     * tells a PostgreSQL left by a killed process (stopped, then started again) from one a living process
     * serves (never touched: a second service on the same directory refuses to start).
     */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port) {
        Locked locked = lock(dataDirectory);
        if (locked.lock() == null) {
            closeQuietly(locked.channel());
            throw new IllegalStateException("the data directory " + dataDirectory + " is in use by another running "
                    + "service; stop it, or give this one another PAYMENTS_DATA_DIR");
        }
        return startLocked(dataDirectory, port, locked);
    }

    /**
     * For tools that run beside a service (the audit command line): connects to the server a running
     * service holds, or starts it (and holds the lock) when no service runs.
     */
    public static EmbeddedPostgresServer startOrAttach(Path dataDirectory) {
        Locked locked = lock(dataDirectory);
        if (locked.lock() != null) {
            return startLocked(dataDirectory, 0, locked);
        }
        closeQuietly(locked.channel());
        try {
            List<String> pid = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.UTF_8);
            int port = Integer.parseInt(pid.get(3).trim());
            log.info("Attached to the running embedded PostgreSQL of {} on port {}", dataDirectory, port);
            return new EmbeddedPostgresServer(null, dataDirectory, null, null, port);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the data directory " + dataDirectory + " is locked, but its PostgreSQL "
                    + "cannot be found", e);
        }
    }

    private record Locked(FileChannel channel, FileLock lock) {
    }

    private static Locked lock(Path dataDirectory) {
        try {
            Files.createDirectories(dataDirectory);
            FileChannel channel = FileChannel.open(dataDirectory.resolveSibling(dataDirectory.getFileName() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                return new Locked(channel, channel.tryLock());
            } catch (OverlappingFileLockException e) {
                // held by this very JVM (a tool running inside a test's application)
                return new Locked(channel, null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the data directory " + dataDirectory, e);
        }
    }

    private static EmbeddedPostgresServer startLocked(Path dataDirectory, int port, Locked locked) {
        try {
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
            return new EmbeddedPostgresServer(postgres, dataDirectory, locked.channel(), locked.lock(), 0);
        } catch (IOException e) {
            closeQuietly(locked.channel());
            throw new UncheckedIOException("the embedded PostgreSQL did not start in " + dataDirectory, e);
        }
    }

    public String jdbcUrl() {
        return postgres != null ? postgres.getJdbcUrl("postgres", "postgres")
                : "jdbc:postgresql://localhost:" + attachedPort + "/postgres?user=postgres";
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            log.debug("closing a lock file failed", e);
        }
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
        if (postgres == null) {
            return; // attached to a server another process runs
        }
        try {
            postgres.close();
            log.info("Embedded PostgreSQL in {} stopped", dataDirectory);
        } catch (IOException e) {
            log.warn("The embedded PostgreSQL in {} did not stop cleanly", dataDirectory, e);
        } finally {
            try {
                lock.release();
            } catch (IOException e) {
                log.debug("releasing the data directory's lock failed", e);
            }
            closeQuietly(lockChannel);
        }
    }
}
