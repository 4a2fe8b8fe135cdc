package io.paysession.cli;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The service as a partner meets it: its own process on this machine, started from the jar the build made (in
 * {@code verify} the api-gateway artifact on the test class path is that executable jar) or, in a {@code test} run
 * without one, from the test class path. Its log goes to {@code service.log} in the working directory.
 */
final class RunningService implements AutoCloseable {

    private static final String MAIN = "io.paysession.gateway.PaymentSessionServiceApplication";

    private final Process process;
    private final String baseUrl;
    private final Path log;

    private RunningService(Process process, String baseUrl, Path log) {
        this.process = process;
        this.baseUrl = baseUrl;
        this.log = log;
    }

    static RunningService start(Path workingDirectory, Map<String, String> settings) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Daxon.update-check.disabled=true"));
        Optional<String> jar = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.endsWith("payment-session-service.jar")).findFirst();
        if (jar.isPresent()) {
            command.addAll(List.of("-jar", jar.get()));
        } else {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), MAIN));
        }
        command.add("--server.port=" + port);
        settings.forEach((name, value) -> command.add("--" + name + "=" + value));
        Path log = workingDirectory.resolve("service.log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("PAYMENTS_"));
        RunningService service = new RunningService(builder.start(), "http://127.0.0.1:" + port, log);
        service.awaitReady(Duration.ofMinutes(3));
        return service;
    }

    String baseUrl() {
        return baseUrl;
    }

    private void awaitReady(Duration timeout) throws IOException {
        HttpClient http = Context.newHttpClient();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + ":\n"
                        + Files.readString(log));
            }
            try {
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(baseUrl
                        + "/service/public-key")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        close();
        throw new IllegalStateException("the service did not answer within " + timeout + ":\n" + Files.readString(log));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
