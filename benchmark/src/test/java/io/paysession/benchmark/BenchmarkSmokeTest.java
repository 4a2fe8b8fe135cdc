package io.paysession.benchmark;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the whole benchmark for a few seconds so that it cannot rot: the service starts as its own process,
 * lifecycles complete without a single failure, and every figure is printed with a value. Its figures are
 * not checked: speed is the benchmark's business, not the test suite's.
 */
class BenchmarkSmokeTest {

    private static final List<String> FIGURES = List.of(
            "lifecycles completed",
            "lifecycles per second",
            "events appended per second",
            "http session/init/payment: +p50 [0-9.]+ +p90 [0-9.]+ +p99 [0-9.]+ +max",
            "http session/confirm: +p50 [0-9.]+ +p90 [0-9.]+ +p99 [0-9.]+ +max",
            "confirm sent to payment_finished received: +p50 [0-9.]+ +p99",
            "service peak memory \\(VmHWM, whole run\\)",
            "service cpu seconds per lifecycle",
            "postgresql cpu seconds per lifecycle",
            "rsa-2048 signatures per second per core",
            "rsa-2048 verifications per second per core",
            "postgresql single-row committed inserts per second \\(1 connection\\)",
            "ceiling by rsa, service alone on [0-9]+ cores",
            "ceiling by committed inserts \\(1 connection\\)",
            "lifecycle rate / lowest service ceiling",
            "failures");

    @Test
    void aShortRunCompletesLifecyclesWithoutFailuresAndPrintsEveryFigure() throws Exception {
        Path workDir = Files.createDirectories(Path.of("target", "benchmark-smoke"));
        BenchmarkOptions options = BenchmarkOptions.parse("--duration=5s", "--warmup=1s", "--concurrency=4",
                "--partners=2", "--rail-latency=0ms-20ms", "--ceiling-time=300ms", "--webhook-timeout=20s",
                "--work-dir=" + workDir);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        Benchmark.Outcome outcome = new Benchmark(options, new PrintStream(printed, true, StandardCharsets.UTF_8)).run();

        String report = printed.toString(StandardCharsets.UTF_8);
        System.out.println(report);
        assertThat(outcome.completed()).as(report).isPositive();
        assertThat(outcome.failures()).as(report).isZero();
        for (String figure : FIGURES) {
            assertThat(Pattern.compile("(?m)^" + figure + ":? +[0-9]").matcher(report).find())
                    .as("printed with a value: " + figure + "\n" + report).isTrue();
        }
        assertThat(workDir.resolve("result.json")).exists();
        assertThat(workDir.resolve("service-data")).as("the service's database is removed after the run").doesNotExist();
    }

    @Test
    void twoNodesShareOneDatabaseAndTheLoadIsSpreadOverThem() throws Exception {
        Path workDir = Files.createDirectories(Path.of("target", "benchmark-smoke-nodes"));
        BenchmarkOptions options = BenchmarkOptions.parse("--nodes=2", "--duration=5s", "--warmup=2s",
                "--concurrency=4", "--partners=2", "--rail-latency=0ms-20ms", "--ceiling-time=300ms",
                "--webhook-timeout=20s", "--work-dir=" + workDir);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        Benchmark.Outcome outcome = new Benchmark(options, new PrintStream(printed, true, StandardCharsets.UTF_8)).run();

        String report = printed.toString(StandardCharsets.UTF_8);
        System.out.println(report);
        assertThat(outcome.completed()).as(report).isPositive();
        assertThat(outcome.failures()).as(report).isZero();
        assertThat(report).contains("2 nodes on one database, requests sent to them in turn",
                "external PostgreSQL started by the benchmark");
        assertThat(Pattern.compile("(?m)^service cpu seconds per lifecycle: +[0-9]").matcher(report).find())
                .as("the nodes' cpu summed\n" + report).isTrue();
        assertThat(workDir.resolve("service-2.log")).as("the second node ran").exists();
    }

    @Test
    void aServiceAlreadyRunningIsDrivenByItsUrlAndItsDatabaseReadWhenGiven() throws Exception {
        Path workDir = Files.createDirectories(Path.of("target", "benchmark-smoke-running"));
        // a service of its own each run: a database left by an earlier run (another version's schema) is not reused
        deleteRecursively(workDir.resolve("elsewhere"));
        String adminToken = "smoke-admin-token-0123456789abcdef";
        BenchmarkOptions serviceOptions = BenchmarkOptions.parse("--rail-latency=0ms-20ms");
        try (ServiceProcess running = ServiceProcess.start(serviceOptions, workDir.resolve("elsewhere"), adminToken,
                Optional.empty())) {
            running.awaitReady(ServiceClient.newHttpClient(), Duration.ofSeconds(180));
            BenchmarkOptions options = BenchmarkOptions.parse("--base-url=" + running.baseUrl() + "/",
                    "--admin-token=" + adminToken, "--webhook-host=127.0.0.1",
                    "--db-url=jdbc:postgresql://127.0.0.1:" + running.embeddedPostgresPort().orElseThrow() + "/postgres",
                    "--db-password=" + running.embeddedPostgresPassword(),
                    "--duration=4s", "--warmup=1s", "--concurrency=4", "--partners=2", "--ceiling-time=300ms",
                    "--webhook-timeout=20s", "--work-dir=" + workDir);
            ByteArrayOutputStream printed = new ByteArrayOutputStream();

            Benchmark.Outcome outcome = new Benchmark(options, new PrintStream(printed, true, StandardCharsets.UTF_8)).run();

            String report = printed.toString(StandardCharsets.UTF_8);
            System.out.println(report);
            assertThat(outcome.completed()).as(report).isPositive();
            assertThat(outcome.failures()).as(report).isZero();
            assertThat(running.isAlive()).as("the benchmark leaves a service it did not start running").isTrue();
            assertThat(report).contains("already running at " + running.baseUrl() + " (--base-url",
                    "the running service's PostgreSQL, read by --db-url");
            assertThat(Pattern.compile("(?m)^service cpu seconds per lifecycle: +n/a").matcher(report).find())
                    .as("not measured from here\n" + report).isTrue();
            for (String figure : List.of("events per lifecycle", "writing transactions committed \\(j\\)",
                    "postgresql single-row committed inserts per second \\(1 connection\\)")) {
                assertThat(Pattern.compile("(?m)^" + figure + ": +[0-9]").matcher(report).find())
                        .as("read from the database given: " + figure + "\n" + report).isTrue();
            }
        }
    }

    private static void deleteRecursively(Path directory) throws java.io.IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
