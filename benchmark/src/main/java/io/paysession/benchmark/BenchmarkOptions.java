package io.paysession.benchmark;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What to run, from {@code --name=value} arguments ({@link Arguments}). Every bound (time, count, waits) has a default, so a
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
 * @param preload             finished sessions written into the empty store before the service starts (0: none)
 * @param nodes               service JVMs on one database, the load spread over them request by request; more than
 *                            one needs an external PostgreSQL ({@code --db-url}, else one is started here)
 * @param baseUrls            a service already running (docker compose, a staging cluster), its nodes' URLs, the load
 *                            spread over them; empty: the benchmark starts the service itself
 * @param adminToken          the running service's admin token, to register the run's partners (with
 *                            {@code baseUrls} only)
 * @param webhookHost         the host name by which the running service reaches this machine's webhook receiver
 *                            (with {@code baseUrls} only; empty: 127.0.0.1)
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
                               Duration serviceStartTimeout,
                               long preload,
                               int nodes,
                               List<String> baseUrls,
                               Optional<String> adminToken,
                               Optional<String> webhookHost) {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)?");

    /** The latency range of the sandbox card rail, as the service's properties spell it. */
    public record RailLatency(Duration min, Duration max) {
        @Override
        public String toString() {
            return min.toMillis() + "ms-" + max.toMillis() + "ms";
        }
    }

    public BenchmarkOptions {
        if (preload < 0) {
            throw new IllegalArgumentException("preload must be 0 or more sessions");
        }
        if (concurrency < 1 || partners < 1 || maxLifecycles < 1) {
            throw new IllegalArgumentException("concurrency, partners and max-lifecycles must be at least 1");
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("duration must be positive");
        }
        if (nodes < 1 || nodes > 16) {
            throw new IllegalArgumentException("nodes must be between 1 and 16");
        }
        if (dbUrl.isPresent() && startExternalPostgres) {
            throw new IllegalArgumentException("give either --db-url or --start-external-postgres, not both");
        }
        serviceJavaOptions = List.copyOf(serviceJavaOptions);
        baseUrls = baseUrls.stream().map(BenchmarkOptions::baseUrl).toList();
        if (baseUrls.isEmpty()) {
            if (adminToken.isPresent() || webhookHost.isPresent()) {
                throw new IllegalArgumentException("--admin-token and --webhook-host go with --base-url");
            }
        } else {
            if (adminToken.isEmpty()) {
                throw new IllegalArgumentException("a running service needs its admin token: --admin-token or "
                        + "PAYMENTS_ADMIN_TOKEN");
            }
            if (nodes != 1 || preload > 0 || startExternalPostgres || railLatency.isPresent() || serviceJar.isPresent()
                    || !serviceJavaOptions.isEmpty() || keepData) {
                throw new IllegalArgumentException("--base-url drives a service already running: --nodes, --preload, "
                        + "--start-external-postgres, --rail-latency, --service-jar, --service-java-opts and "
                        + "--keep-data are for a service the benchmark starts");
            }
        }
    }

    /** Whether the service is already running ({@code --base-url}) rather than started by the benchmark. */
    public boolean drivesRunningService() {
        return !baseUrls.isEmpty();
    }

    private static String baseUrl(String text) {
        String url = text.trim();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL: " + text);
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                || (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) || uri.getRawQuery() != null) {
            throw new IllegalArgumentException("a base URL is http(s)://host[:port], without a path: " + text);
        }
        return url;
    }

    /** Whether the benchmark starts a PostgreSQL for the service: asked for, or needed by several nodes. */
    public boolean startsExternalPostgres() {
        return startExternalPostgres || (nodes > 1 && dbUrl.isEmpty() && baseUrls.isEmpty());
    }

    /**
     * The options as given on the command line ({@code --name=value}, or {@code --name value}); picocli parses
     * them, prints {@code --help} and answers a bad value with a usage error.
     */
    @Command(name = "payments-benchmark", sortOptions = false, usageHelpAutoWidth = true,
            description = "Runs the service and a load against it, then prints the report.",
            footer = "Durations are 500ms, 30s or 2m; a plain number is seconds.")
    public static final class Arguments {
        @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "60s", converter = DurationConverter.class,
                description = "measured window (default: ${DEFAULT-VALUE})")
        Duration duration;
        @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
                description = "load before the window, not measured (default: ${DEFAULT-VALUE})")
        Duration warmup;
        @Option(names = "--max-lifecycles", paramLabel = "N", defaultValue = "1000000",
                description = "the window also ends after this many completed lifecycles (default: ${DEFAULT-VALUE})")
        long maxLifecycles;
        @Option(names = "--concurrency", paramLabel = "N", defaultValue = "16", description = "virtual users (default: ${DEFAULT-VALUE})")
        int concurrency;
        @Option(names = "--partners", paramLabel = "N", defaultValue = "4",
                description = "partners, each with its own key (default: ${DEFAULT-VALUE})")
        int partners;
        @Option(names = "--rail-latency", paramLabel = "MIN-MAX", converter = RailLatencyConverter.class,
                description = "sandbox card rail latency, e.g. 0ms-1ms (default: the service's own)")
        RailLatency railLatency;
        @Option(names = "--db-url", paramLabel = "JDBC-URL",
                description = "an external PostgreSQL (default: the embedded one)")
        String dbUrl;
        @Option(names = "--db-user", paramLabel = "USER", defaultValue = "postgres", description = "(default: ${DEFAULT-VALUE})")
        String dbUser;
        @Option(names = "--db-password", paramLabel = "PASSWORD", defaultValue = "", description = "(default: empty)")
        String dbPassword;
        @Option(names = "--start-external-postgres", arity = "0..1", paramLabel = "true|false",
                description = "start a second PostgreSQL here and use it as the external URL")
        boolean startExternalPostgres;
        @Option(names = "--service-jar", paramLabel = "PATH",
                description = {"the service's jar (default:", "api-gateway/target/payment-session-service.jar,", "looked for upwards)"})
        Path serviceJar;
        @Option(names = "--service-java-opts", paramLabel = "\"OPTIONS\"", defaultValue = "",
                description = "JVM options of the service, e.g. \"-Xmx1g\"")
        String serviceJavaOptions;
        @Option(names = "--ceiling-time", paramLabel = "DURATION", defaultValue = "3s", converter = DurationConverter.class,
                description = "measuring time of each ceiling (default: ${DEFAULT-VALUE})")
        Duration ceilingTime;
        @Option(names = "--webhook-timeout", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
                description = "a webhook not received this long after its request is a failure (default: ${DEFAULT-VALUE})")
        Duration webhookTimeout;
        @Option(names = "--status-check", arity = "0..1", paramLabel = "true|false", description = "end each lifecycle with session/status")
        boolean statusCheck;
        @Option(names = "--work-dir", paramLabel = "PATH", description = "default: a new temporary directory")
        Path workDir;
        @Option(names = "--keep-data", arity = "0..1", paramLabel = "true|false", description = "keep the service's database after the run")
        boolean keepData;
        @Option(names = "--service-start-timeout", paramLabel = "DURATION", defaultValue = "180s", converter = DurationConverter.class,
                description = "the service must answer within it (default: ${DEFAULT-VALUE})")
        Duration serviceStartTimeout;
        @Option(names = "--preload", paramLabel = "N", defaultValue = "0",
                description = "fill the store with N finished sessions of mixed kinds before the service starts "
                        + "(default: ${DEFAULT-VALUE})")
        long preload;
        @Option(names = "--nodes", paramLabel = "N", defaultValue = "1",
                description = "service JVMs on one database, requests spread over them; more than 1 uses an external "
                        + "PostgreSQL, started here unless --db-url (default: ${DEFAULT-VALUE})")
        int nodes;
        @Option(names = "--base-url", paramLabel = "URL[,URL...]", split = ",",
                description = {"drive a service already running (e.g. docker compose) instead of starting one;",
                        "several URLs: its nodes, requests sent to them in turn. --db-url then names its",
                        "database, read for the database figures (optional)"})
        List<String> baseUrls;
        @Option(names = "--admin-token", paramLabel = "TOKEN",
                description = "the running service's admin token (default: the environment's PAYMENTS_ADMIN_TOKEN)")
        String adminToken;
        @Option(names = "--webhook-host", paramLabel = "HOST",
                description = {"the host name the running service reaches this machine by for the webhooks,",
                        "e.g. host.docker.internal (default: 127.0.0.1)"})
        String webhookHost;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help and exit")
        boolean help;
        @Spec
        CommandSpec spec;

        /** The options these arguments give; a contradiction or a value out of range is a usage error. */
        public BenchmarkOptions options() {
            try {
                return new BenchmarkOptions(warmup, duration, maxLifecycles, concurrency, partners,
                        Optional.ofNullable(railLatency), Optional.ofNullable(dbUrl).filter(url -> !url.isBlank()),
                        dbUser, dbPassword, startExternalPostgres, Optional.ofNullable(serviceJar),
                        Arrays.stream(serviceJavaOptions.trim().split("\\s+")).filter(word -> !word.isEmpty()).toList(),
                        ceilingTime, webhookTimeout, statusCheck, Optional.ofNullable(workDir), keepData,
                        serviceStartTimeout, preload, nodes, baseUrls == null ? List.of() : baseUrls,
                        Optional.ofNullable(adminToken != null || baseUrls == null ? adminToken
                                : System.getenv("PAYMENTS_ADMIN_TOKEN")).filter(token -> !token.isBlank()),
                        Optional.ofNullable(webhookHost).filter(host -> !host.isBlank()));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
        }
    }

    /** The options of these arguments; a usage error is a {@link ParameterException} naming what is wrong. */
    public static BenchmarkOptions parse(String... args) {
        Arguments arguments = new Arguments();
        new CommandLine(arguments).parseArgs(args);
        return arguments.options();
    }

    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            return duration(text);
        }
    }

    static final class RailLatencyConverter implements ITypeConverter<RailLatency> {
        @Override
        public RailLatency convert(String text) {
            return railLatency(text);
        }
    }

    static Duration duration(String text) {
        Matcher matcher = DURATION.matcher(text.trim());
        if (!matcher.matches()) {
            throw new TypeConversionException("not a duration: " + text + " (use 500ms, 30s or 2m)");
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
            throw new TypeConversionException("the maximum is below the minimum");
        }
        return new RailLatency(min, max);
    }
}
