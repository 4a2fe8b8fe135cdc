package io.paysession.gateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;

/**
 * Stops and starts the PostgreSQL serving a data directory under a running application, as an operator or a failing
 * host does: a fast shutdown (SIGINT: sessions ended, a checkpoint, gone; {@code pg_ctl} refuses to run as root,
 * as the tests do here), then the same binary with the very options it ran with ({@code postmaster.opts}), on the
 * same port, in a user namespace when run as root. A server it started is stopped when the JVM exits, since the application's own shutdown only knows the
 * server it started itself.
 */
public final class PostgresControl {

    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    private final Path dataDirectory;
    private List<String> command;

    public PostgresControl(Path dataDirectory) {
        this.dataDirectory = dataDirectory;
    }

    public void stop() {
        try {
            long pid = Long.parseLong(pidFile().get(0).trim());
            ProcessHandle postmaster = ProcessHandle.of(pid)
                    .orElseThrow(() -> new IllegalStateException("no postgres process " + pid));
            String binary = postmaster.info().command().orElse("");
            if (!binary.endsWith("/postgres")) {
                throw new IllegalStateException(pid + " is not a postgres process: " + binary);
            }
            command = new ArrayList<>();
            if ("root".equals(System.getProperty("user.name"))) {
                // postgres refuses to run as root; in a user namespace it is not (as the embedded library does it)
                command.addAll(List.of("unshare", "-U"));
            }
            command.add(binary);
            Matcher options = QUOTED.matcher(Files.readString(dataDirectory.resolve("postmaster.opts"),
                    StandardCharsets.UTF_8));
            while (options.find()) {
                command.add(options.group(1));
            }
            Process signal = new ProcessBuilder("kill", "-INT", Long.toString(pid)).start();
            if (!signal.waitFor(10, TimeUnit.SECONDS) || signal.exitValue() != 0) {
                throw new IllegalStateException("could not signal postgres " + pid);
            }
            postmaster.onExit().get(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("postgres of " + dataDirectory + " did not stop", e);
        }
    }

    public void start() {
        if (command == null) {
            throw new IllegalStateException("not stopped by this control");
        }
        Process restarted;
        try {
            restarted = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dataDirectory.resolveSibling("postgres-restarted.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(restarted::destroy));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (!restarted.isAlive()) {
                throw new IllegalStateException("postgres exited with " + restarted.exitValue());
            }
            // the last line of postmaster.pid says "ready" once the server accepts connections
            List<String> lines = Files.exists(dataDirectory.resolve("postmaster.pid")) ? pidFile() : List.of();
            return lines.size() >= 8 && lines.get(7).trim().equals("ready");
        });
    }

    private List<String> pidFile() throws IOException {
        return Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.UTF_8);
    }
}
