package io.paysession.benchmark;

import org.junit.jupiter.api.Test;

import java.time.Duration;
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
    void unknownOptionsAndContradictionsAreRefused() {
        assertThatThrownBy(() -> BenchmarkOptions.parse("--durration=5s")).hasMessageContaining("durration");
        assertThatThrownBy(() -> BenchmarkOptions.parse("--db-url=jdbc:postgresql://x/y", "--start-external-postgres"))
                .hasMessageContaining("not both");
    }
}
