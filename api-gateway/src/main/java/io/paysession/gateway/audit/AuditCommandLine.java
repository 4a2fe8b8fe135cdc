package io.paysession.gateway.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.settlement.SettlementReport;
import io.paysession.api.wire.PaymentJson;
import io.paysession.command.erasure.JdbcSessionKeys;
import io.paysession.command.erasure.PersonalDataSerializer;
import io.paysession.command.erasure.SessionKeys;
import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.infra.ToolCommandLine;
import io.paysession.gateway.security.ServiceKeyStore;
import io.paysession.gateway.security.VaultKeyConfiguration;
import io.paysession.query.audit.ProjectionReplay;
import io.paysession.query.audit.Reconciliation;
import io.paysession.query.audit.ReportFormats;
import io.paysession.query.audit.SessionAudit;
import io.paysession.query.audit.StoredEvents;
import io.paysession.query.eventstore.jdbc.JdbcStoredEvents;
import io.paysession.query.session.SessionViewsRebuild;
import io.paysession.query.settlement.SettlementRebuild;
import io.paysession.query.settlement.SettlementStore;
import io.paysession.webhook.notification.WebhookOutboxRebuild;
import org.axonframework.serialization.AnnotationRevisionResolver;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code java -jar payment-session-service.jar audit <command> [--option=value ...]}: the audit and
 * reconciliation operations of the admin API, from the command line, against the service's database
 * (docs/audit.md). With a running service on the embedded default it connects to that service's
 * PostgreSQL; without one it starts it. It never migrates or writes to the service's own tables: only
 * the {@code *_rebuild} tables of a replay are written. Arguments are read by picocli: {@code --help} on
 * the command and on each subcommand, {@code audit help <command>}, and a usage error (an unknown command or
 * option, a missing argument) exits 2 with the usage.
 */
@Command(name = "audit", subcommands = HelpCommand.class,
        synopsisSubcommandLabel = "<command>",
        description = "The audit and reconciliation operations of the admin API (docs/audit.md).",
        footerHeading = "%n", footer = {
        "Database: PAYMENTS_DB_URL, PAYMENTS_DB_USER, PAYMENTS_DB_PASSWORD, or the embedded one of",
        "PAYMENTS_DATA_DIR (default ./data); --db-url=, --db-user=, --db-password=, --data-dir= override them.",
        "Exit codes: 0 done, 1 failed, 2 bad arguments, 3 differences found."})
public final class AuditCommandLine implements java.util.concurrent.Callable<Integer> {

    /** Exit codes: 0 done, 2 bad arguments, 3 a verification found differences, 1 anything else. */
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE_ERROR = 2;
    static final int DIFFERENCES = 3;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> environment;
    private final ObjectMapper json = PaymentJson.newObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public AuditCommandLine(PrintStream out, PrintStream err, Map<String, String> environment) {
        this.out = out;
        this.err = err;
        this.environment = environment;
    }

    public static void main(String[] args) {
        ToolCommandLine.quietLogging();
        System.exit(new AuditCommandLine(System.out, System.err, System.getenv()).run(args));
    }

    public int run(String[] args) {
        return ToolCommandLine.of(this, out, err, (exception, failed, parsed) -> {
            if (exception instanceof PaymentsException refused) {
                err.println(refused.description());
                return USAGE_ERROR;
            }
            err.println("audit failed: " + exception.getMessage());
            return FAILED;
        }).execute(args);
    }

    /** {@code audit} without a command: the usage, as a usage error. */
    @Override
    public Integer call() {
        new CommandLine(this).usage(out);
        return USAGE_ERROR;
    }

    /** Where the database is, and {@code --help}; on every command. */
    static final class DatabaseOptions extends io.paysession.gateway.infra.DatabaseOptions {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
        boolean help;
    }

    @Command(name = "history",
            description = "Every event of a session, with the request behind it.")
    int history(@Parameters(paramLabel = "<session_id>") String sessionId, @Mixin DatabaseOptions database) {
        var session = AuditArguments.session(sessionId);
        return withDatabase(database, (events, jdbc) -> {
            var history = new SessionAudit(events).history(session);
            if (history.isEmpty()) {
                err.println("Session " + session.value() + " does not exist");
                return FAILED;
            }
            print(history.get());
            return OK;
        });
    }

    @Command(name = "view", description = "The session as it was.")
    int view(@Parameters(paramLabel = "<session_id>") String sessionId,
             @Option(names = "--at", paramLabel = "<instant>") String at,
             @Option(names = "--position", paramLabel = "<n>") String position,
             @Option(names = "--version", paramLabel = "v1|v2") String version,
             @Mixin DatabaseOptions database) {
        var session = AuditArguments.session(sessionId);
        var instant = AuditArguments.instant(at);
        var upTo = AuditArguments.position(position);
        var apiVersion = AuditArguments.version(version);
        return withDatabase(database, (events, jdbc) -> {
            var view = new SessionAudit(events).viewAt(session, instant, upTo, apiVersion);
            if (view.isEmpty()) {
                err.println("Session " + session.value() + " did not exist at that point");
                return FAILED;
            }
            print(view.get());
            return OK;
        });
    }

    @Command(name = "report", description = "Reconciliation report of the read model.")
    int report(@Option(names = "--project", paramLabel = "<p>") String project,
               @Option(names = "--from", paramLabel = "<day>") String from,
               @Option(names = "--to", paramLabel = "<day>") String to,
               @Option(names = "--format", paramLabel = "json|csv") String format,
               @Option(names = "--ids", arity = "0..1", fallbackValue = "true", paramLabel = "true|false",
                       description = "with the operation ids behind each row") String ids,
               @Mixin DatabaseOptions database) {
        String valid = AuditArguments.project(project);
        AuditArguments.DateRange range = AuditArguments.range(from, to);
        boolean csv = AuditArguments.csv(format);
        boolean withIds = AuditArguments.flag("ids", ids);
        return withDatabase(database, (events, jdbc) -> {
            SettlementReport report = reconciliation(events, jdbc).report(valid, range.from(), range.to(), withIds);
            if (csv) {
                out.print(ReportFormats.csv(report));
            } else {
                print(ReportFormats.json(report));
            }
            return OK;
        });
    }

    @Command(name = "verify",
            description = "The report recomputed from the event store; exit 3 on a difference.")
    int verify(@Option(names = "--project", paramLabel = "<p>") String project,
               @Option(names = "--from", paramLabel = "<day>") String from,
               @Option(names = "--to", paramLabel = "<day>") String to,
               @Mixin DatabaseOptions database) {
        String valid = AuditArguments.project(project);
        AuditArguments.DateRange range = AuditArguments.range(from, to);
        return withDatabase(database, (events, jdbc) -> {
            Reconciliation.Verification verification = reconciliation(events, jdbc).verify(valid, range.from(),
                    range.to());
            if (verification.matches()) {
                out.println("verified: the report of " + valid + " from " + range.from() + " to " + range.to()
                        + " equals the event store folded up to position " + verification.position());
                return OK;
            }
            out.println(verification.differences().size() + " difference(s) between the read model and the event store "
                    + "up to position " + verification.position() + ":");
            verification.differences().forEach(difference -> out.println("  " + difference));
            return DIFFERENCES;
        });
    }

    @Command(name = "export",
            description = {"The events of [from, to) as a hash chain with a head the service key signs, as "
                    + "GET /admin/v1/audit/export writes it; to --out, else to standard output.",
                    "The service key is read from the database and opened with the vault key (PAYMENTS_VAULT_KEY, "
                            + "PAYMENTS_VAULT_KEY_ID, PAYMENTS_VAULT_PREVIOUS_KEYS, or the data directory's "
                            + "vault-key); nothing is written to the database."})
    int export(@Option(names = "--from", required = true, paramLabel = "<instant>",
                       description = "the period's start, ISO 8601, as 2026-11-01T00:00:00Z") String from,
               @Option(names = "--to", required = true, paramLabel = "<instant>",
                       description = "the period's end (excluded)") String to,
               @Option(names = "--previous-head", paramLabel = "<hash>",
                       description = "the head hash of the export before, so that consecutive exports chain") String previousHead,
               @Option(names = "--out", paramLabel = "<file>", description = "where to write the export") Path outFile,
               @Mixin DatabaseOptions database) {
        var period = AuditArguments.exportPeriod(from, to, previousHead);
        VaultKeyRing vaultKeys = vaultKeys(database);
        return withDatabase(database, (events, jdbc) -> {
            ServiceKeyStore.SigningKey key = ServiceKeyStore.readActiveKey(jdbc, vaultKeys, Clock.systemUTC());
            AuditExport export = new AuditExport(events, new AuditExport.Signer(key.keyId(), key::sign), Clock.systemUTC());
            try {
                // standard output stays open; a file is closed
                java.io.Writer writer = outFile != null
                        ? java.nio.file.Files.newBufferedWriter(outFile, java.nio.charset.StandardCharsets.UTF_8)
                        : new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, java.nio.charset.StandardCharsets.UTF_8));
                AuditExport.Written written;
                try {
                    written = export.write(period.from(), period.to(), period.previousHead(), writer);
                    writer.flush();
                } finally {
                    if (outFile != null) {
                        writer.close();
                    }
                }
                (outFile != null ? out : err).println("exported " + written.events() + " event(s)"
                        + (outFile != null ? " to " + outFile : "") + ", head " + written.headHash()
                        + ", signed by service key " + key.keyId());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return OK;
        });
    }

    /**
     * The vault key ring, read only: {@code PAYMENTS_VAULT_KEY} (with its id and the previous keys), else the
     * data directory's {@code vault-key}; never generated here.
     */
    private VaultKeyRing vaultKeys(DatabaseOptions options) {
        String key = environment.get("PAYMENTS_VAULT_KEY");
        if (key == null || key.isBlank()) {
            Path file = Path.of(options.dataDir != null ? options.dataDir
                    : environment.getOrDefault("PAYMENTS_DATA_DIR", "./data")).resolve("vault-key");
            try {
                key = java.nio.file.Files.exists(file) ? java.nio.file.Files.readString(file).trim() : null;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot read " + file, e);
            }
            if (key == null || key.isEmpty()) {
                throw new IllegalStateException("no vault key: set PAYMENTS_VAULT_KEY (and PAYMENTS_VAULT_KEY_ID), or "
                        + "point --data-dir at the service's data directory");
            }
        }
        return VaultKeyConfiguration.keyRing(key, environment.getOrDefault("PAYMENTS_VAULT_KEY_ID", "vault-key-1"),
                VaultKeyConfiguration.parseList(environment.getOrDefault("PAYMENTS_VAULT_PREVIOUS_KEYS", "")), true, null);
    }

    @Command(name = "verify-export",
            description = {"Check an audit export (GET /admin/v1/audit/export): its hash chain and its signed head.",
                    "Exit 0 only for an intact chain signed by the key given; 3 otherwise, each problem printed."})
    int verifyExport(@Parameters(paramLabel = "<file>", description = "the export, JSON lines") Path file,
                     @Option(names = "--public-key", required = true, paramLabel = "<file>",
                             description = {"the service's public key, PEM (GET /service/public-key), or the published "
                                     + "keys, JSON (GET /service/public-keys): then the one the head's key_id names"})
                     Path publicKey,
                     @Option(names = "--previous-head", paramLabel = "<hash>",
                             description = "the head hash of the export this one must continue") String previousHead,
                     @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
                     boolean help) throws java.io.IOException {
        String keys = java.nio.file.Files.readString(publicKey);
        AuditExportVerification.Keys byId = keys.trim().startsWith("{")
                ? AuditExportVerification.Keys.published(keys)
                : AuditExportVerification.Keys.single(io.paysession.gateway.security.Pem.readRsaPublicKey(keys)
                .orElseThrow(() -> PaymentsException.invalidRequest(publicKey + " holds no RSA public key (PEM)")));
        List<String> lines = java.nio.file.Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank()).toList();
        AuditExportVerification.Result result = AuditExportVerification.verify(lines, byId, previousHead);
        if (result.intact()) {
            out.println("intact: " + result.events() + " event(s), head " + result.headHash()
                    + ", signed by the service key given");
            return OK;
        }
        out.println("NOT intact: " + result.problems().size() + " problem(s):");
        result.problems().forEach(problem -> out.println("  " + problem));
        return DIFFERENCES;
    }

    @Command(name = "replay",
            description = "Rebuild into fresh tables and compare; exit 3 on a difference.")
    int replay(@Option(names = "--projection", paramLabel = "all|session-views|settlement|webhooks") String projection,
               @Mixin DatabaseOptions database) {
        return withDatabase(database, (events, jdbc) -> {
            ProjectionReplay replay = new ProjectionReplay(events, List.of(new SessionViewsRebuild(jdbc, events),
                    new SettlementRebuild(jdbc), new WebhookOutboxRebuild(jdbc)),
                    new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource())));
            var projections = AuditArguments.projections(replay, projection);
            List<ProjectionReplay.Result> results = replay.run(projections, this::progress);
            boolean identical = true;
            for (ProjectionReplay.Result result : results) {
                identical &= result.identical();
                out.println(result.projection() + ": " + result.rows() + " rows rebuilt up to position " + result.position()
                        + (result.movedOn() > 0 ? ", " + result.movedOn() + " live rows moved on since" : "")
                        + (result.identical() ? ", identical to the live table" : ", " + result.differences().size()
                        + " difference(s):"));
                result.differences().forEach(difference -> out.println("  " + difference));
            }
            return identical ? OK : DIFFERENCES;
        });
    }

    /** One line per report: done and total, % done, events per second and the time left at that pace. */
    void progress(long done, long total, Duration elapsed) {
        double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
        double rate = done / seconds;
        double percent = total == 0 ? 100.0 : 100.0 * done / total;
        long left = rate <= 0 ? 0 : Math.round((total - done) / rate);
        out.printf("replayed %d of %d events (%.1f%%), %.0f events/s, %d s left%n", done, total, percent, rate, left);
    }

    private interface Operation {
        int run(StoredEvents events, JdbcTemplate jdbc);
    }

    private int withDatabase(DatabaseOptions options, Operation operation) {
        if (ToolCommandLine.onAxonServer(environment)) {
            throw new IllegalStateException("the audit command line reads Axon's JDBC event store in PostgreSQL, and "
                    + "this environment keeps the events in Axon Server (" + ToolCommandLine.AXON_SERVER_SETTINGS
                    + "): use the admin API of a running node (docs/audit.md)");
        }
        try (Database database = open(options)) {
            JacksonSerializer plain = JacksonSerializer.builder()
                    .objectMapper(PaymentJson.newObjectMapper())
                    .revisionResolver(new AnnotationRevisionResolver())
                    .build();
            // personal data is read as the service reads it (docs/erasure.md); the vault key that opens the data keys
            // is needed only once an encrypted value is met
            SessionKeys keys = new LazySessionKeys(() -> new JdbcSessionKeys(database.jdbc, vaultKeys(options),
                    Clock.systemUTC(), java.time.Duration.ofMinutes(1)));
            StoredEvents events = new JdbcStoredEvents(database.jdbc,
                    new PersonalDataSerializer(plain, PaymentJson.newObjectMapper(), keys));
            return operation.run(events, database.jdbc);
        }
    }

    /** Session keys opened on first use: a store without encrypted data is read without the vault key. */
    private static final class LazySessionKeys implements SessionKeys {
        private final java.util.function.Supplier<SessionKeys> open;
        private SessionKeys keys;

        LazySessionKeys(java.util.function.Supplier<SessionKeys> open) {
            this.open = open;
        }

        private synchronized SessionKeys keys() {
            if (keys == null) {
                keys = open.get();
            }
            return keys;
        }

        @Override
        public DataKey writingKey(io.paysession.api.session.SessionId session, String project) {
            throw new IllegalStateException("the audit command line writes no events");
        }

        @Override
        public java.util.Optional<javax.crypto.SecretKey> key(String keyId) {
            return keys().key(keyId);
        }

        @Override
        public void link(io.paysession.api.session.SessionId session, String project, String reference) {
            throw new IllegalStateException("the audit command line writes no events");
        }

        @Override
        public java.util.List<io.paysession.api.session.SessionId> sessionsOf(String project, String reference) {
            return keys().sessionsOf(project, reference);
        }

        @Override
        public int erase(java.util.Collection<io.paysession.api.session.SessionId> sessions) {
            throw new IllegalStateException("the audit command line erases nothing");
        }

        @Override
        public int reSealBatch(int limit) {
            throw new IllegalStateException("the audit command line writes no keys");
        }

        @Override
        public java.util.Map<String, Long> keysBySealingKey() {
            return keys().keysBySealingKey();
        }
    }

    private static Reconciliation reconciliation(StoredEvents events, JdbcTemplate jdbc) {
        return new Reconciliation(events, new SettlementStore(jdbc, "settlement"));
    }

    private void print(Object node) {
        try {
            out.println(json.writeValueAsString(node));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Database open(DatabaseOptions options) {
        Function<String, String> env = environment::get;
        String url = options.url != null ? options.url : env.apply("PAYMENTS_DB_URL");
        HikariConfig config = new HikariConfig();
        config.setMaximumPoolSize(2);
        config.setPoolName("audit");
        EmbeddedPostgresServer embedded = null;
        if (url != null && !url.isBlank()) {
            config.setJdbcUrl(url);
            config.setUsername(options.user != null ? options.user
                    : environment.getOrDefault("PAYMENTS_DB_USER", "postgres"));
            config.setPassword(options.password != null ? options.password : env.apply("PAYMENTS_DB_PASSWORD"));
        } else {
            Path dataDirectory = Path.of(options.dataDir != null ? options.dataDir
                    : environment.getOrDefault("PAYMENTS_DATA_DIR", "./data"));
            embedded = EmbeddedPostgresServer.startOrAttach(dataDirectory.resolve("postgres"));
            config.setJdbcUrl(embedded.jdbcUrl());
            config.setUsername("postgres");
            config.setPassword(embedded.password());
        }
        HikariDataSource dataSource = new HikariDataSource(config);
        return new Database(dataSource, embedded, new JdbcTemplate(dataSource));
    }

    private record Database(HikariDataSource dataSource, EmbeddedPostgresServer embedded, JdbcTemplate jdbc)
            implements AutoCloseable {
        @Override
        public void close() {
            dataSource.close();
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
