package io.paysession.benchmark;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkOptionsTest {

    @Test
    void defaultsBoundTheRunInTimeAndCount() {
        BenchmarkOptions options = BenchmarkOptions.parse();

        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.warmup()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.maxLifecycles()).isEqualTo(1_000_000);
        assertThat(options.concurrency()).isEqualTo(16);
        assertThat(options.railLatency()).isEmpty();
        assertThat(options.dbUrl()).isEmpty();
    }

    @Test
    void durationsTakeMillisecondsSecondsMinutesOrPlainSeconds() {
        assertThat(BenchmarkOptions.duration("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(BenchmarkOptions.duration("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(BenchmarkOptions.duration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(BenchmarkOptions.duration("7")).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void railLatencyIsARangeOrOneValue() {
        assertThat(BenchmarkOptions.parse("--rail-latency=0ms-1ms").railLatency().orElseThrow())
                .isEqualTo(new BenchmarkOptions.RailLatency(Duration.ZERO, Duration.ofMillis(1)));
        assertThat(BenchmarkOptions.parse("--rail-latency=5ms").railLatency().orElseThrow())
                .isEqualTo(new BenchmarkOptions.RailLatency(Duration.ofMillis(5), Duration.ofMillis(5)));
    }

    @Test
    void serviceJavaOptionsAreSplitIntoWordsAndFlagsNeedNoValue() {
        BenchmarkOptions options = BenchmarkOptions.parse("--service-java-opts=-Xmx1g  -XX:+UseG1GC", "--status-check",
                "--start-external-postgres");

        assertThat(options.serviceJavaOptions()).isEqualTo(List.of("-Xmx1g", "-XX:+UseG1GC"));
        assertThat(options.statusCheck()).isTrue();
        assertThat(options.startExternalPostgres()).isTrue();
    }

    @Test
    void preloadIsNoneByDefaultAndANumberOfSessionsWhenGiven() {
        assertThat(BenchmarkOptions.parse().preload()).isZero();
        assertThat(BenchmarkOptions.parse("--preload=100000").preload()).isEqualTo(100_000);
        assertThatThrownBy(() -> BenchmarkOptions.parse("--preload=-1")).hasMessageContaining("preload");
    }

    @Test
    void severalNodesShareAnExternalPostgresStartedHereUnlessOneIsGiven() {
        BenchmarkOptions single = BenchmarkOptions.parse();
        assertThat(single.nodes()).isEqualTo(1);
        assertThat(single.startsExternalPostgres()).as("one node: its embedded default").isFalse();
        BenchmarkOptions three = BenchmarkOptions.parse("--nodes=3");
        assertThat(three.nodes()).isEqualTo(3);
        assertThat(three.startsExternalPostgres()).isTrue();
        assertThat(BenchmarkOptions.parse("--nodes=3", "--db-url=jdbc:postgresql://db/payments").startsExternalPostgres())
                .as("the given database").isFalse();
        assertThatThrownBy(() -> BenchmarkOptions.parse("--nodes=0")).hasMessageContaining("nodes");
    }

    @Test
    void aRunningServiceIsGivenByItsNodesUrlsWithItsAdminToken() {
        BenchmarkOptions running = BenchmarkOptions.parse("--base-url=http://localhost:8080/,http://localhost:8081",
                "--admin-token=secret-token", "--webhook-host=host.docker.internal");
        assertThat(running.drivesRunningService()).isTrue();
        assertThat(running.baseUrls()).containsExactly("http://localhost:8080", "http://localhost:8081");
        assertThat(running.adminToken()).contains("secret-token");
        assertThat(running.webhookHost()).contains("host.docker.internal");
        assertThat(running.startsExternalPostgres()).isFalse();
        assertThat(BenchmarkOptions.parse().drivesRunningService()).isFalse();

        assertThatThrownBy(() -> BenchmarkOptions.parse("--base-url=http://localhost:8080", "--admin-token=t",
                "--nodes=2")).hasMessageContaining("service the benchmark starts");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--base-url=http://localhost:8080", "--admin-token=t",
                "--rail-latency=0ms-1ms")).hasMessageContaining("--rail-latency");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--base-url=localhost:8080", "--admin-token=t"))
                .hasMessageContaining("http(s)://host[:port]");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--base-url=http://localhost:8080/api", "--admin-token=t"))
                .hasMessageContaining("without a path");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--admin-token=t")).hasMessageContaining("--base-url");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--webhook-host=h")).hasMessageContaining("--base-url");
    }

    @Test
    void unknownOptionsAndContradictionsAreRefused() {
        assertThatThrownBy(() -> BenchmarkOptions.parse("--durration=5s")).hasMessageContaining("durration");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--db-url=jdbc:postgresql://x/y", "--start-external-postgres"))
                .hasMessageContaining("not both");
    }

    @Test
    void helpPrintsEveryOptionWithItsDefaultAndRunsNothing() {
        Execution help = execute("--help");

        assertThat(help.exitCode).isZero();
        assertThat(help.ran).isEmpty();
        assertThat(help.out.toString()).contains("Usage: payments-benchmark",
                "--duration=DURATION", "measured window (default: 60s)", "--warmup=DURATION", "(default: 10s)",
                "--concurrency=N", "virtual users (default: 16)", "--partners=N", "(default: 4)",
                "--max-lifecycles=N", "(default: 1000000)", "--rail-latency=MIN-MAX", "--db-url=JDBC-URL",
                "--db-user=USER", "(default: postgres)", "--db-password=PASSWORD", "--start-external-postgres",
                "--service-jar=PATH", "--service-java-opts", "--ceiling-time=DURATION", "(default: 3s)",
                "--webhook-timeout=DURATION", "(default: 30s)", "--status-check", "--work-dir=PATH", "--keep-data",
                "--service-start-timeout=DURATION", "(default: 180s)", "--nodes=N", "--base-url=URL[,URL...]",
                "--admin-token=TOKEN", "PAYMENTS_ADMIN_TOKEN", "--webhook-host=HOST");
        assertThat(help.err.toString()).isEmpty();
    }

    @Test
    void aBadValueIsAUsageErrorNamingTheOptionAndNothingRuns() {
        assertUsageError(execute("--concurrency=lots"), "--concurrency", "'lots' is not an int", "Usage: payments-benchmark");
        assertUsageError(execute("--duration=5x"), "--duration", "not a duration: 5x");
        assertUsageError(execute("--rail-latency=5ms-1ms"), "--rail-latency", "the maximum is below the minimum");
        assertUsageError(execute("--concurrency=0"), "concurrency, partners and max-lifecycles must be at least 1");
        assertUsageError(execute("--durration=5s"), "Unknown option: '--durration=5s'", "Possible solutions: --duration");
        assertUsageError(execute("--db-url=jdbc:postgresql://x/y", "--start-external-postgres"), "not both");
    }

    @Test
    void theParsedOptionsAreWhatRunsAndItsExitCodeIsTheProcesss() {
        Execution run = execute("--concurrency=3", "--status-check", "--keep-data=false", "--duration=2m");

        assertThat(run.exitCode).isEqualTo(RUN_EXIT_CODE);
        assertThat(run.ran).singleElement().satisfies(options -> {
            assertThat(options.concurrency()).isEqualTo(3);
            assertThat(options.statusCheck()).isTrue();
            assertThat(options.keepData()).isFalse();
            assertThat(options.duration()).isEqualTo(Duration.ofMinutes(2));
        });
    }

    private static final int RUN_EXIT_CODE = 7;

    private static void assertUsageError(Execution execution, String... problem) {
        assertThat(execution.exitCode).as(execution.err.toString()).isEqualTo(2);
        assertThat(execution.ran).isEmpty();
        assertThat(execution.err.toString()).contains(problem);
    }

    /** What {@link BenchmarkMain} printed and ran for some arguments, with a stand-in for the benchmark. */
    private static final class Execution {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final List<BenchmarkOptions> ran = new ArrayList<>();
        int exitCode;
    }

    private static Execution execute(String... args) {
        Execution execution = new Execution();
        execution.exitCode = BenchmarkMain.execute(new PrintWriter(execution.out, true), new PrintWriter(execution.err, true),
                options -> {
                    execution.ran.add(options);
                    return RUN_EXIT_CODE;
                }, args);
        return execution;
    }
}
