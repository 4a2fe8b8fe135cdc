package io.paysession.gateway.support;

import io.paysession.gateway.PaymentSessionServiceApplication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * The application as its own JVM process on a data directory, so that a test can kill it the way a
 * crash does ({@code SIGKILL}: no shutdown hook, no graceful stop) and start it again on the same data.
 * Its output goes to a file in the data directory; {@link #close()} leaves no JVM and no PostgreSQL behind.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Path dataDirectory;
    private final Map<String, Object> properties;
    private Process process;
    private int port;
    private int starts;
    private Path output;

    /** {@code overrides} win over {@link TestServiceProperties#forDataDirectory}. */
    public ServiceProcess(Path dataDirectory, Map<String, Object> overrides) {
        this.dataDirectory = dataDirectory;
        this.properties = new LinkedHashMap<>(TestServiceProperties.forDataDirectory(dataDirectory));
        this.properties.putAll(overrides);
    }

    /** Changes a setting for the next {@link #start()}, as an operator changes the configuration between runs. */
    public void set(String name, Object value) {
        properties.put(name, value);
    }

    /** Starts the JVM and waits until it answers {@code /actuator/health} with 200. */
    public void start() {
        launch();
        awaitHealthy();
    }

    /** Starts the JVM without waiting for it: {@link #awaitStarted()} waits. Several nodes start at once this way. */
    public void launch() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running");
        }
        port = WebhookReceiver.freePort();
        properties.put("server.port", port);
        output = dataDirectory.resolve("service-" + (++starts) + ".out");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Daxon.update-check.disabled=true",
                "-cp", System.getProperty("java.class.path"),
                PaymentSessionServiceApplication.class.getName()));
        // as command-line arguments: they win over application.yml's environment placeholders
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until a {@link #launch() launched} JVM answers {@code /actuator/health} with 200. */
    public void awaitStarted() {
        awaitHealthy();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** A graceful stop (SIGTERM: the shutdown hooks run), waiting until the JVM is gone. */
    public void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the service process " + process.pid() + " did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** A crash: SIGKILL, and wait until the JVM is gone. Its PostgreSQL keeps running, as after a real crash. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the service process " + process.pid() + " did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The PostgreSQL serving the data directory, if one runs (read from its postmaster.pid). */
    public Optional<ProcessHandle> postgres() {
        Path pidFile = dataDirectory.resolve("postgres").resolve("postmaster.pid");
        try {
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(0).trim().matches("[0-9]+")) {
                return Optional.empty();
            }
            return ProcessHandle.of(Long.parseLong(lines.get(0).trim()))
                    .filter(ProcessHandle::isAlive)
                    .filter(handle -> handle.info().command().map(command -> command.endsWith("/postgres")).orElse(false));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The last lines of the process's output, for assertion messages. */
    public String outputTail(int lines) {
        try {
            if (output == null || !Files.exists(output)) {
                return "(no output)";
            }
            List<String> all = Files.readAllLines(output, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(output unreadable: " + e + ")";
        }
    }

    public String output(int start) {
        try {
            return Files.readString(dataDirectory.resolve("service-" + start + ".out"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Stops the JVM (gracefully if it can, else by force) and any PostgreSQL it left, keeps the process
     * output in {@code target/e2e-logs}, then deletes the data directory. Safe to call whatever state the
     * test left things in; fails if a PostgreSQL of the data directory survives it.
     */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        Optional<ProcessHandle> leftOver = postgres();
        leftOver.ifPresent(postmaster -> {
            postmaster.destroy();
            try {
                postmaster.onExit().get(15, TimeUnit.SECONDS);
            } catch (Exception e) {
                postmaster.destroyForcibly();
            }
        });
        keepOutputs();
        deleteRecursively(dataDirectory);
        if (leftOver.isPresent() && leftOver.get().isAlive()) {
            throw new IllegalStateException("PostgreSQL " + leftOver.get().pid() + " of " + dataDirectory
                    + " is still running");
        }
    }

    private void keepOutputs() {
        Path logs = Path.of("target", "e2e-logs");
        try {
            Files.createDirectories(logs);
            for (int start = 1; start <= starts; start++) {
                Path file = dataDirectory.resolve("service-" + start + ".out");
                if (Files.exists(file)) {
                    Files.copy(file, logs.resolve(dataDirectory.getFileName() + "-service-" + start + ".out"),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            // the outputs are for reading after a failure; losing them fails nothing
        }
    }

    private void awaitHealthy() {
        HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the service process exited with " + process.exitValue());
                }
                try {
                    return TestPartner.exchange(health).status() == 200;
                } catch (UncheckedIOException notListeningYet) {
                    return false;
                }
            });
        } catch (RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n" + outputTail(60), e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is not worth failing a test for
        }
    }
}
