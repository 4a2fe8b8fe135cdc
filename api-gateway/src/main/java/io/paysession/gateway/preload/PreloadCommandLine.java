package io.paysession.gateway.preload;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.paysession.api.wire.PaymentJson;
import io.paysession.gateway.eventstore.jdbc.JdbcEventStoreConfiguration;
import io.paysession.gateway.infra.AxonInfrastructureConfiguration;
import io.paysession.gateway.infra.DataDirectory;
import io.paysession.gateway.infra.DatabaseOptions;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.infra.ToolCommandLine;
import io.paysession.gateway.security.VaultKeyConfiguration;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.serialization.AnnotationRevisionResolver;
import org.axonframework.serialization.json.JacksonSerializer;
import org.flywaydb.core.Flyway;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code java -jar payment-session-service.jar preload --sessions=N}: fills the service's empty store with N
 * finished sessions of mixed kinds before the service's first start (docs/benchmark.md, "Preload"), for measuring
 * the service against a store of a given size. With the embedded default it starts the data directory's PostgreSQL
 * itself (and refuses while a service runs on it); the schema is migrated as the service migrates it.
 */
@Command(name = "preload",
        description = "Fills an empty store with finished sessions of mixed kinds (docs/benchmark.md).",
        footerHeading = "%n", footer = {
        "Database: PAYMENTS_DB_URL, PAYMENTS_DB_USER, PAYMENTS_DB_PASSWORD, or the embedded one of",
        "PAYMENTS_DATA_DIR (default ./data); the vault key: PAYMENTS_VAULT_KEY or the data directory's.",
        "Each preload partner's private key is written to <data-dir>/preload-partners/<project>.key.",
        "Exit codes: 0 done, 1 failed, 2 bad arguments."})
public final class PreloadCommandLine implements Callable<Integer> {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE_ERROR = 2;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;
    @Option(names = "--sessions", required = true, paramLabel = "<n>", description = "finished sessions to write")
    long sessions;
    @Option(names = "--partners", defaultValue = "4", paramLabel = "<n>",
            description = "partners the sessions belong to (preload-1 ...; the last one captures later); default 4")
    int partners;
    @Option(names = "--span-days", defaultValue = "30", paramLabel = "<days>",
            description = "the sessions are spread over this many days; default 30")
    int spanDays;
    @Option(names = "--seed", defaultValue = "1", paramLabel = "<n>", description = "of the amounts and times; default 1")
    long seed;
    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> environment;

    public PreloadCommandLine(PrintStream out, PrintStream err, Map<String, String> environment) {
        this.out = out;
        this.err = err;
        this.environment = environment;
    }

    public static void main(String[] args) {
        ToolCommandLine.quietLogging();
        System.exit(new PreloadCommandLine(System.out, System.err, System.getenv()).run(args));
    }

    public int run(String[] args) {
        return ToolCommandLine.of(this, out, err, (exception, failed, parsed) -> {
            err.println("preload failed: " + exception.getMessage());
            return FAILED;
        }).execute(args);
    }

    @Override
    public Integer call() throws java.io.IOException {
        if (sessions < 0 || partners < 1 || partners > 100 || spanDays < 1) {
            err.println("--sessions must be at least 0, --partners between 1 and 100, --span-days at least 1");
            return USAGE_ERROR;
        }
        if (ToolCommandLine.onAxonServer(environment)) {
            err.println("preload refused: it fills Axon's JDBC event store in PostgreSQL, and this environment keeps "
                    + "the events in Axon Server (" + ToolCommandLine.AXON_SERVER_SETTINGS + ")");
            return FAILED;
        }
        DataDirectory data = new DataDirectory(database.dataDir != null ? database.dataDir
                : environment.getOrDefault("PAYMENTS_DATA_DIR", "./data"));
        String jdbcUrl = database.url != null ? database.url : environment.get("PAYMENTS_DB_URL");
        HikariConfig config = new HikariConfig();
        config.setMaximumPoolSize(2);
        config.setPoolName("preload");
        config.setAutoCommit(true);
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        EmbeddedPostgresServer embedded = null;
        if (jdbcUrl != null && !jdbcUrl.isBlank()) {
            config.setJdbcUrl(jdbcUrl);
            config.setUsername(database.user != null ? database.user
                    : environment.getOrDefault("PAYMENTS_DB_USER", "postgres"));
            config.setPassword(database.password != null ? database.password
                    : environment.get("PAYMENTS_DB_PASSWORD"));
        } else {
            embedded = EmbeddedPostgresServer.start(data.resolve("postgres"), 0);
            config.setJdbcUrl(embedded.jdbcUrl());
            config.setUsername("postgres");
            config.setPassword(embedded.password());
        }
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
            AxonInfrastructureConfiguration axon = new AxonInfrastructureConfiguration();
            EventSchema eventSchema = JdbcEventStoreConfiguration.eventSchema();
            var serializer = JacksonSerializer.builder()
                    .objectMapper(PaymentJson.newObjectMapper())
                    .revisionResolver(new AnnotationRevisionResolver())
                    .build();
            var keys = VaultKeyConfiguration.keyRing(environment.get("PAYMENTS_VAULT_KEY"),
                    environment.getOrDefault("PAYMENTS_VAULT_KEY_ID", "vault-key-1"),
                    VaultKeyConfiguration.parseList(environment.getOrDefault("PAYMENTS_VAULT_PREVIOUS_KEYS", "")), false, data);
            Preload preload = new Preload(dataSource, serializer, eventSchema, axon.tokenSchema(), keys);
            Instant end = Instant.now().minus(SessionMix.LONGEST_SESSION).minus(Duration.ofDays(6))
                    .truncatedTo(ChronoUnit.SECONDS);
            long reportEvery = Math.max(Preload.CHUNK, sessions / 20);
            long[] reported = {0};
            Preload.Result result = preload.run(sessions, "preload", partners, end, Duration.ofDays(spanDays), seed,
                    (done, events, elapsed) -> {
                        if (done - reported[0] >= reportEvery || done == sessions) {
                            reported[0] = done;
                            double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
                            out.printf("preloaded %d of %d sessions, %d events, %.0f sessions/s, %.0f events/s%n",
                                    done, sessions, events, done / seconds, events / seconds);
                        }
                    });
            for (Map.Entry<String, String> key : result.partnerKeys().entrySet()) {
                DataDirectory.writeOwnerOnly(data.resolve("preload-partners").resolve(key.getKey() + ".key"),
                        key.getValue());
            }
            out.printf("preload done: %d sessions, %d events in %.1f s; kinds %s%n", result.sessions(),
                    result.events(), result.took().toMillis() / 1000.0, result.kinds());
            return OK;
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
