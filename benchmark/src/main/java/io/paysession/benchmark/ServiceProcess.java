package io.paysession.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The payment service as a process of its own, so that its CPU time and memory are its own. Started from
 * its executable jar, or (when the jar is not built, as in a {@code test} run) from this JVM's class path.
 * Settings go in as command-line arguments, which win over the environment placeholders of its
 * application.yml; the database URL goes in as {@code PAYMENTS_DB_*} variables, which is what the
 * service's DataSource reads.
 */
final class ServiceProcess implements AutoCloseable {

    static final String MAIN_CLASS = "io.paysession.gateway.PaymentSessionServiceApplication";
    private static final String JAR = "api-gateway/target/payment-session-service.jar";

    private final Process process;
    private final int port;
    private final Path log;
    private final Path dataDirectory;
    private final String launchedFrom;
    private final Thread killOnExit;

    private ServiceProcess(Process process, int port, Path log, Path dataDirectory, String launchedFrom) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.dataDirectory = dataDirectory;
        this.launchedFrom = launchedFrom;
        // a benchmark stopped with Ctrl-C must not leave the service (and its PostgreSQL) running
        this.killOnExit = new Thread(this::stop, "stop-service");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    static ServiceProcess start(BenchmarkOptions options, Path workDir, String adminToken, Optional<String> dbUrl) {
        return start(options, workDir, adminToken, dbUrl, 1, Optional.empty());
    }

    /**
     * Node {@code node} of the run (1 for a single service), with its own data directory and log; the nodes of one
     * database share {@code vaultKey}, as production nodes do.
     */
    static ServiceProcess start(BenchmarkOptions options, Path workDir, String adminToken, Optional<String> dbUrl,
                                int node, Optional<String> vaultKey) {
        int port = freePort();
        Path dataDirectory = workDir.resolve(node == 1 ? "service-data" : "service-data-" + node);
        Path log = workDir.resolve(node == 1 ? "service.log" : "service-" + node + ".log");
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.add("-Daxon.update-check.disabled=true"); // no attempt to reach AxonIQ from a closed machine
        command.addAll(options.serviceJavaOptions());
        String launchedFrom = addLaunchTarget(options, command);
        command.add("--server.port=" + port);
        command.add("--payments.data.dir=" + dataDirectory);
        command.add("--payments.admin.token=" + adminToken);
        command.add("--payments.demo-partner.enabled=false");
        // the load generator's webhook receiver listens on loopback, which is refused unless allowed
        command.add("--payments.webhooks.allowed-networks=127.0.0.0/8");
        options.railLatency().ifPresent(latency -> {
            command.add("--payments.sandbox.card-latency-min=" + latency.min().toMillis() + "ms");
            command.add("--payments.sandbox.card-latency-max=" + latency.max().toMillis() + "ms");
        });
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        onlyThisRunsSettings(builder, options, dbUrl);
        // in the environment, not on the command line every process listing shows
        vaultKey.ifPresent(key -> builder.environment().put("PAYMENTS_VAULT_KEY", key));
        try {
            Files.createDirectories(dataDirectory);
            return new ServiceProcess(builder.start(), port, log, dataDirectory, launchedFrom);
        } catch (IOException e) {
            throw new UncheckedIOException("the service did not start: " + String.join(" ", command), e);
        }
    }

    /** Only what this run decides reaches the service, not settings left in the caller's shell. */
    private static void onlyThisRunsSettings(ProcessBuilder builder, BenchmarkOptions options, Optional<String> dbUrl) {
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("PAYMENTS_") || name.equals("SERVER_PORT")
                || name.equals("SPRING_PROFILES_ACTIVE"));
        environment.put("AXONIQ_UPDATE_CHECKER_DISABLED", "true");
        dbUrl.ifPresent(url -> {
            environment.put("PAYMENTS_DB_URL", url);
            environment.put("PAYMENTS_DB_USER", options.dbUser());
            environment.put("PAYMENTS_DB_PASSWORD", options.dbPassword());
        });
    }

    /**
     * Runs the service jar's {@code preload} command on the data directory (or the external database) the service
     * will be started on, and waits for it: {@code options.preload()} finished sessions in the empty store
     * (docs/benchmark.md, "Preload"). Its output goes to {@code preload.log}; the last line (sessions, events,
     * seconds) is answered.
     */
    static String preload(BenchmarkOptions options, Path workDir, Optional<String> dbUrl) throws InterruptedException {
        Path log = workDir.resolve("preload.log");
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(options.serviceJavaOptions());
        addLaunchTarget(options, command);
        command.add("preload");
        command.add("--sessions=" + options.preload());
        command.add("--data-dir=" + workDir.resolve("service-data"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        onlyThisRunsSettings(builder, options, dbUrl);
        try {
            Files.createDirectories(workDir.resolve("service-data"));
            int exit = builder.start().waitFor();
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            String last = lines.stream().filter(line -> line.startsWith("preload done")).findFirst()
                    .orElse(lines.isEmpty() ? "" : lines.get(lines.size() - 1));
            if (exit != 0) {
                throw new IllegalStateException("the preload failed (exit " + exit + "): " + last + "; see " + log);
            }
            return last;
        } catch (IOException e) {
            throw new UncheckedIOException("the preload did not run: " + String.join(" ", command), e);
        }
    }

    /** The jar if there is one, else the class path of this JVM if the service's classes are on it. */
    private static String addLaunchTarget(BenchmarkOptions options, List<String> command) {
        Optional<Path> jar = options.serviceJar().or(ServiceProcess::findJar);
        if (jar.isPresent()) {
            if (!Files.isRegularFile(jar.get())) {
                throw new IllegalStateException("no service jar at " + jar.get());
            }
            command.add("-jar");
            command.add(jar.get().toAbsolutePath().toString());
            return "jar " + jar.get().toAbsolutePath().normalize();
        }
        String classFile = MAIN_CLASS.replace('.', '/') + ".class";
        if (ClassLoader.getSystemClassLoader().getResource(classFile) != null) {
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(MAIN_CLASS);
            return "class path of the benchmark's JVM";
        }
        throw new IllegalStateException("the service is not built: run ./mvnw -B -pl benchmark -am package -DskipTests"
                + " from the project root, or pass --service-jar=PATH");
    }

    /** {@value #JAR} in the working directory or one of its parents (the project root or a module). */
    private static Optional<Path> findJar() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(JAR);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the service answers {@code GET /service/public-key}; returns that key's PEM. */
    String awaitReady(HttpClient http, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + "/service/public-key"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with code " + process.exitValue()
                        + " before it was ready; its log: " + log + "\n" + tail(40));
            }
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return response.body();
                }
            } catch (ConnectException e) {
                // not listening yet
            } catch (IOException e) {
                // starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(200);
        }
        throw new IllegalStateException("the service did not answer within " + timeout + "; its log: " + log
                + "\n" + tail(40));
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    Path dataDirectory() {
        return dataDirectory;
    }

    String launchedFrom() {
        return launchedFrom;
    }

    /** The embedded PostgreSQL's postmaster.pid: line 1 is its pid, line 4 its port. */
    private Optional<List<String>> embeddedPostmaster() {
        Path pidFile = dataDirectory.resolve("postgres").resolve("postmaster.pid");
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
            return lines.size() >= 4 ? Optional.of(lines) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    OptionalLong embeddedPostgresPid() {
        return embeddedPostmaster().map(lines -> OptionalLong.of(Long.parseLong(lines.get(0).trim())))
                .orElse(OptionalLong.empty());
    }

    OptionalInt embeddedPostgresPort() {
        return embeddedPostmaster().map(lines -> OptionalInt.of(Integer.parseInt(lines.get(3).trim())))
                .orElse(OptionalInt.empty());
    }

    /** The embedded PostgreSQL's superuser password, which the service generates beside its data directory. */
    String embeddedPostgresPassword() {
        try {
            return Files.readString(dataDirectory.resolve("postgres.password"), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException("no postgres.password in the service's data directory", e);
        }
    }

    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /**
     * SIGTERM, so Spring shuts down gracefully and stops its embedded PostgreSQL; if it does not end in
     * time, it is killed, and so is the PostgreSQL it leaves behind (only that one, by the pid in its data
     * directory, and only if that pid is a postgres process).
     */
    private synchronized void stop() {
        if (!process.isAlive()) {
            return;
        }
        OptionalLong postmaster = embeddedPostgresPid();
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                postmaster.ifPresent(pid -> ProcessHandle.of(pid)
                        .filter(handle -> handle.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
                        .ifPresent(ProcessHandle::destroy));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // already shutting down
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
