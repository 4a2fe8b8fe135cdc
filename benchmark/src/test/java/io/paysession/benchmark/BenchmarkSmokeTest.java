package io.paysession.benchmark;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}
