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

    /** How often the watchdog looks at the postmaster. */
    static final Duration WATCH_INTERVAL = Duration.ofMillis(500);
    /** How long the watchdog tries to start a postmaster that died before it gives up and stops the service. */
    static final Duration RESTART_DEADLINE = Duration.ofSeconds(60);
    /** Exit status of a service whose embedded PostgreSQL cannot be started again (EX_UNAVAILABLE). */
    static final int EXIT_DATABASE_GONE = 69;

    private volatile EmbeddedPostgres postgres;
    private final Path dataDirectory;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final int attachedPort;
    private volatile boolean closing;
    private volatile ProcessHandle postmaster;
    private volatile List<ProcessHandle> postmasterChildren = List.of();
    private final Thread watchdog;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory, FileChannel lockChannel,
                                   FileLock lock, int attachedPort, boolean supervised) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.attachedPort = attachedPort;
        if (postgres != null && supervised) {
            this.postmaster = runningPostmaster(dataDirectory).orElse(null);
            this.watchdog = new Thread(this::watch, "embedded-postgres-watchdog");
            this.watchdog.setDaemon(true);
            this.watchdog.start();
        } else {
            this.watchdog = null;
        }
    }

    /**
     * Starts the server of {@code dataDirectory}, holding its lock file for as long as it runs. The lock
     * tells a PostgreSQL left by a killed process (stopped, then started again) from one a living process
     * serves (never touched: a second service on the same directory refuses to start).
     */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port) {
        return start(dataDirectory, port, true);
    }

    /**
     * Like {@link #start(Path, int)}; {@code supervised} false leaves out the watchdog, for a server that stands in
     * for an external PostgreSQL (which no service restarts: its operator does).
     */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port, boolean supervised) {
        Locked locked = lock(dataDirectory);
        if (locked.lock() == null) {
            closeQuietly(locked.channel());
            throw new IllegalStateException("the data directory " + dataDirectory + " is in use by another running "
                    + "service; stop it, or give this one another PAYMENTS_DATA_DIR");
        }
        return startLocked(dataDirectory, port, locked, supervised);
    }

    /**
     * For tools that run beside a service (the audit command line): connects to the server a running
     * service holds, or starts it (and holds the lock) when no service runs.
     */
    public static EmbeddedPostgresServer startOrAttach(Path dataDirectory) {
        Locked locked = lock(dataDirectory);
        if (locked.lock() != null) {
            return startLocked(dataDirectory, 0, locked, true);
        }
        closeQuietly(locked.channel());
        try {
            List<String> pid = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.UTF_8);
            int port = Integer.parseInt(pid.get(3).trim());
            log.info("Attached to the running embedded PostgreSQL of {} on port {}", dataDirectory, port);
            return new EmbeddedPostgresServer(null, dataDirectory, null, null, port, false);
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

    private static EmbeddedPostgresServer startLocked(Path dataDirectory, int port, Locked locked, boolean supervised) {
        try {
            stopOrphanedServer(dataDirectory);
            EmbeddedPostgres postgres = builder(dataDirectory, port).start();
            requirePasswords(postgres, dataDirectory);
            log.info("Embedded PostgreSQL started on port {} with its data in {}", postgres.getPort(), dataDirectory);
            return new EmbeddedPostgresServer(postgres, dataDirectory, locked.channel(), locked.lock(), 0, supervised);
        } catch (IOException e) {
            closeQuietly(locked.channel());
            throw new UncheckedIOException("the embedded PostgreSQL did not start in " + dataDirectory, e);
        }
    }

    private static EmbeddedPostgres.Builder builder(Path dataDirectory, int port) {
        Path passwordFile = passwordFile(dataDirectory);
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                // the library runs initdb with "-A trust"; its locale options come after, and initdb takes the last
                .setLocaleConfig("auth", "scram-sha-256")
                .setLocaleConfig("pwfile", passwordFile.toString())
                .setConnectConfig("password", password(dataDirectory))
                .setServerConfig("listen_addresses", "localhost")
                .setServerConfig("password_encryption", "scram-sha-256")
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .setServerConfig("max_connections", "200");
        if (port > 0) {
            builder.setPort(port);
        }
        return builder;
    }

    /**
     * The superuser's password: generated once into {@code <data directory>.password} (owner-only), beside the
     * data directory, since initdb wants an empty directory. Without it any local user could connect as the
     * superuser (the library's default is {@code trust}) and read or change every payment.
     */
    static Path passwordFile(Path dataDirectory) {
        return dataDirectory.resolveSibling(dataDirectory.getFileName() + ".password");
    }

    /** The superuser's password, created with the file the first time. */
    static String password(Path dataDirectory) {
        Path file = passwordFile(dataDirectory);
        try {
            if (Files.exists(file)) {
                String existing = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (!existing.isEmpty()) {
                    return existing;
                }
            }
            byte[] random = new byte[24];
            new java.security.SecureRandom().nextBytes(random);
            String generated = java.util.HexFormat.of().formatHex(random);
            DataDirectory.writeOwnerOnly(file, generated);
            return generated;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the database password " + file, e);
        }
    }

    /**
     * A data directory made before passwords (initdb {@code trust}) is switched on start: the superuser gets the
     * password and {@code pg_hba.conf} allows password authentication only, on loopback and the local socket.
     */
    private static void requirePasswords(EmbeddedPostgres postgres, Path dataDirectory) {
        Path hba = dataDirectory.resolve("pg_hba.conf");
        try {
            boolean trusts = Files.readAllLines(hba, StandardCharsets.UTF_8).stream()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .anyMatch(line -> !line.endsWith("scram-sha-256"));
            if (!trusts) {
                return;
            }
            String password = password(dataDirectory);
            if (!password.matches("[0-9a-f]{16,128}")) {
                throw new IllegalStateException("the database password in " + passwordFile(dataDirectory)
                        + " must be 16 to 128 lower-case hex characters");
            }
            try (java.sql.Connection connection = postgres.getPostgresDatabase().getConnection();
                 java.sql.Statement statement = connection.createStatement()) {
                statement.execute("set password_encryption = 'scram-sha-256'");
                statement.execute("alter role postgres with password '" + password + "'");
                Files.writeString(hba, PG_HBA, StandardCharsets.UTF_8);
                statement.execute("select pg_reload_conf()");
            }
            log.warn("The embedded PostgreSQL of {} accepted connections without a password; it now requires the "
                    + "password in {}", dataDirectory, passwordFile(dataDirectory));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot switch " + hba + " to password authentication", e);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot set the password of the embedded PostgreSQL in " + dataDirectory, e);
        }
    }

    /** Password authentication only, from this machine only. */
    static final String PG_HBA = """
            # Written by the payment session service: password authentication (SCRAM) only, from this machine only.
            # TYPE  DATABASE  USER  ADDRESS        METHOD
            local   all       all                  scram-sha-256
            host    all       all   127.0.0.1/32   scram-sha-256
            host    all       all   ::1/128        scram-sha-256
            """;

    /**
     * The watchdog: a postmaster that dies under a running service (killed, out of memory) is started again on
     * the same data directory and port, after PostgreSQL's own crash recovery; the connection pool then finds it
     * again. Should that fail for {@link #RESTART_DEADLINE}, the service stops with a clear message and exit
     * status {@link #EXIT_DATABASE_GONE}, so that its supervisor starts it again, rather than wait for ever.
     */
    private void watch() {
        while (!closing) {
            try {
                Thread.sleep(WATCH_INTERVAL.toMillis());
                ProcessHandle current = postmaster;
                if (current == null || closing) {
                    continue;
                }
                if (current.isAlive()) {
                    postmasterChildren = current.children().toList();
                } else {
                    restartAfterDeathOf(current);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("The watchdog of the embedded PostgreSQL in {} failed", dataDirectory, e);
            }
        }
    }

    private synchronized void restartAfterDeathOf(ProcessHandle dead) throws InterruptedException {
        if (closing) {
            return;
        }
        int port = postgres.getPort();
        log.error("The embedded PostgreSQL (pid {}) of {} has stopped; starting it again on port {}", dead.pid(),
                dataDirectory, port);
        long started = System.nanoTime();
        long deadline = started + RESTART_DEADLINE.toNanos();
        // its backends notice the postmaster's death and exit; the next one may start only when they are gone
        for (ProcessHandle child : postmasterChildren) {
            try {
                child.onExit().get(Math.max(1, deadline - System.nanoTime()) / 4, java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                log.warn("Process {} of the stopped PostgreSQL has not exited yet", child.pid());
            }
        }
        closeQuietly(postgres); // releases the library's lock of the old server; stopping it fails, it is gone
        RuntimeException last = null;
        while (!closing && System.nanoTime() < deadline) {
            try {
                // a start that failed may leave the library's lock file locked by this JVM: start from a new file
                Files.deleteIfExists(dataDirectory.resolve("epg-lock"));
                postgres = builder(dataDirectory, port).start();
                postmaster = runningPostmaster(dataDirectory).orElse(null);
                log.warn("The embedded PostgreSQL of {} runs again on port {} (pid {}), {} ms after it stopped",
                        dataDirectory, port, postmaster == null ? "?" : postmaster.pid(),
                        (System.nanoTime() - started) / 1_000_000);
                return;
            } catch (IOException | RuntimeException e) {
                last = e instanceof RuntimeException runtime ? runtime : new UncheckedIOException((IOException) e);
                log.warn("Starting the embedded PostgreSQL of {} again failed ({}); trying again", dataDirectory,
                        e.toString());
                Thread.sleep(1000);
            }
        }
        if (closing) {
            return;
        }
        log.error("The embedded PostgreSQL of {} could not be started again within {} s; the service stops (exit "
                        + "status {}) so that its supervisor starts it again", dataDirectory,
                RESTART_DEADLINE.toSeconds(), EXIT_DATABASE_GONE, last);
        closing = true;
        // System.exit waits for the shutdown hooks, which may wait for this thread: exit from another one
        Thread exit = new Thread(() -> System.exit(EXIT_DATABASE_GONE), "embedded-postgres-exit");
        exit.start();
    }

    /** The postmaster of the data directory, from its {@code postmaster.pid}, if it runs. */
    static Optional<ProcessHandle> runningPostmaster(Path dataDirectory) {
        try {
            List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.UTF_8);
            if (lines.isEmpty()) {
                return Optional.empty();
            }
            return ProcessHandle.of(Long.parseLong(lines.get(0).trim())).filter(ProcessHandle::isAlive);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void closeQuietly(EmbeddedPostgres postgres) {
        try {
            postgres.close();
        } catch (IOException | RuntimeException e) {
            log.debug("closing the stopped embedded PostgreSQL failed", e);
        }
    }

    /** The superuser's password (of the server this one started or attached to). */
    public String password() {
        return password(dataDirectory);
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
        closing = true;
        if (watchdog != null) {
            watchdog.interrupt(); // a server started unsupervised has none
        }
        synchronized (this) {
            // waits for a restart under way
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
