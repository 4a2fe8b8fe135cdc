package io.paysession.benchmark;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What to run, from {@code --name=value} arguments. Every bound (time, count, waits) has a default, so a
 * run always stops by itself.
 *
 * @param warmup              load before the measured window, to let both JVMs compile the hot paths
 * @param duration            length of the measured window
 * @param maxLifecycles       the window also ends when this many lifecycles have completed in it
 * @param concurrency         virtual users, each running one lifecycle after another
 * @param partners            partners registered for the run, each with its own key; users are spread over them
 * @param railLatency         {@code payments.sandbox.card-latency-min/max} for the service, or empty for its default
 * @param dbUrl               an external PostgreSQL for the service, or empty for its embedded default
 * @param startExternalPostgres start a PostgreSQL in this process and give it to the service as an external URL
 * @param serviceJar          the service's executable jar, or empty to look for it
 * @param serviceJavaOptions  JVM options of the service process
 * @param ceilingTime         measuring time of each ceiling
 * @param webhookTimeout      a webhook not received within this time after its request is a failure
 * @param statusCheck         end each lifecycle with {@code session/status}, as many partners do
 * @param workDir             where the run's files go, or empty for a new temporary directory
 * @param keepData            keep the service's data directory (its database) after the run
 * @param serviceStartTimeout the service must answer within this time after its start
 */
public record BenchmarkOptions(Duration warmup,
                               Duration duration,
                               long maxLifecycles,
                               int concurrency,
                               int partners,
                               Optional<RailLatency> railLatency,
                               Optional<String> dbUrl,
                               String dbUser,
                               String dbPassword,
                               boolean startExternalPostgres,
                               Optional<Path> serviceJar,
                               List<String> serviceJavaOptions,
                               Duration ceilingTime,
                               Duration webhookTimeout,
                               boolean statusCheck,
                               Optional<Path> workDir,
                               boolean keepData,
                               Duration serviceStartTimeout) {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)?");

    /** The latency range of the sandbox card rail, as the service's properties spell it. */
    public record RailLatency(Duration min, Duration max) {
        @Override
        public String toString() {
            return min.toMillis() + "ms-" + max.toMillis() + "ms";
        }
    }

    public BenchmarkOptions {
        if (concurrency < 1 || partners < 1 || maxLifecycles < 1) {
            throw new IllegalArgumentException("concurrency, partners and max-lifecycles must be at least 1");
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("duration must be positive");
        }
        if (dbUrl.isPresent() && startExternalPostgres) {
            throw new IllegalArgumentException("give either --db-url or --start-external-postgres, not both");
        }
        serviceJavaOptions = List.copyOf(serviceJavaOptions);
    }

    public static final String USAGE = """
            java -jar benchmark/target/payments-benchmark.jar [options]
              --duration=60s            measured window (ms, s or m; a plain number is seconds)
              --warmup=10s              load before the window, not measured
              --max-lifecycles=1000000  the window also ends after this many completed lifecycles
              --concurrency=16          virtual users
              --partners=4              partners, each with its own RSA-2048 key
              --rail-latency=MIN-MAX    sandbox card rail latency, e.g. 0ms-1ms (default: the service's own)
              --db-url=jdbc:postgresql://host:5432/db   external PostgreSQL (default: the embedded one)
              --db-user=postgres --db-password=
              --start-external-postgres start a second PostgreSQL here and use it as the external URL
              --service-jar=PATH        default: api-gateway/target/payment-session-service.jar, found upwards
              --service-java-opts="-Xmx1g ..."
              --ceiling-time=3s         measuring time of each ceiling
              --webhook-timeout=30s
              --status-check            end each lifecycle with session/status
              --work-dir=PATH           default: a new temporary directory
              --keep-data               keep the service's database after the run
              --service-start-timeout=180s
            """;

    public static BenchmarkOptions parse(String... args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + arg);
            }
            int equals = arg.indexOf('=');
            given.put(equals < 0 ? arg.substring(2) : arg.substring(2, equals), equals < 0 ? "true" : arg.substring(equals + 1));
        }
        Map<String, String> left = new LinkedHashMap<>(given);
        BenchmarkOptions options = new BenchmarkOptions(
                duration(take(left, "warmup", "10s")),
                duration(take(left, "duration", "60s")),
                Long.parseLong(take(left, "max-lifecycles", "1000000")),
                Integer.parseInt(take(left, "concurrency", "16")),
                Integer.parseInt(take(left, "partners", "4")),
                Optional.ofNullable(left.remove("rail-latency")).map(BenchmarkOptions::railLatency),
                Optional.ofNullable(left.remove("db-url")).filter(url -> !url.isBlank()),
                take(left, "db-user", "postgres"),
                take(left, "db-password", ""),
                Boolean.parseBoolean(take(left, "start-external-postgres", "false")),
                Optional.ofNullable(left.remove("service-jar")).map(Path::of),
                words(take(left, "service-java-opts", "")),
                duration(take(left, "ceiling-time", "3s")),
                duration(take(left, "webhook-timeout", "30s")),
                Boolean.parseBoolean(take(left, "status-check", "false")),
                Optional.ofNullable(left.remove("work-dir")).map(Path::of),
                Boolean.parseBoolean(take(left, "keep-data", "false")),
                duration(take(left, "service-start-timeout", "180s")));
        if (!left.isEmpty()) {
            throw new IllegalArgumentException("unknown option(s) " + left.keySet());
        }
        return options;
    }

    private static String take(Map<String, String> options, String name, String fallback) {
        String value = options.remove(name);
        return value == null ? fallback : value;
    }

    static Duration duration(String text) {
        Matcher matcher = DURATION.matcher(text.trim());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a duration: " + text + " (use 500ms, 30s or 2m)");
        }
        long amount = Long.parseLong(matcher.group(1));
        String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofSeconds(amount);
        };
    }

    private static RailLatency railLatency(String text) {
        String[] bounds = text.split("-", 2);
        Duration min = duration(bounds[0]);
        Duration max = bounds.length == 2 ? duration(bounds[1]) : min;
        if (max.compareTo(min) < 0) {
            throw new IllegalArgumentException("rail-latency: the maximum is below the minimum");
        }
        return new RailLatency(min, max);
    }

    private static List<String> words(String text) {
        return new ArrayList<>(Arrays.stream(text.trim().split("\\s+")).filter(word -> !word.isEmpty()).toList());
    }
}
