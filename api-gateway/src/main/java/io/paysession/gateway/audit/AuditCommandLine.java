package io.paysession.gateway.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.settlement.SettlementReport;
import io.paysession.api.wire.PaymentJson;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.query.audit.ProjectionReplay;
import io.paysession.query.audit.Reconciliation;
import io.paysession.query.audit.ReportFormats;
import io.paysession.query.audit.SessionAudit;
import io.paysession.query.audit.StoredEvents;
import io.paysession.query.session.SessionViewsRebuild;
import io.paysession.query.settlement.SettlementRebuild;
import io.paysession.query.settlement.SettlementStore;
import io.paysession.webhook.notification.WebhookOutboxRebuild;
import org.axonframework.serialization.AnnotationRevisionResolver;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar payment-session-service.jar audit <command> [--option=value ...]}: the audit and
 * reconciliation operations of the admin API, from the command line, against the service's database
 * (docs/audit.md). With a running service on the embedded default it connects to that service's
 * PostgreSQL; without one it starts it. It never migrates or writes to the service's own tables: only
 * the {@code *_rebuild} tables of a replay are written.
 */
public final class AuditCommandLine {

    static final String USAGE = """
            usage: java -jar payment-session-service.jar audit <command> [options]
              history <session_id>                          every event of a session, with the request behind it
              view <session_id> [--at=<instant>] [--position=<n>] [--version=v1|v2]
                                                            the session as it was
              report --project=<p> --from=<day> --to=<day> [--format=json|csv] [--ids]
                                                            reconciliation report of the read model
              verify --project=<p> --from=<day> --to=<day>  the report recomputed from the event store; exit 3 on a difference
              replay [--projection=all|session-views|settlement|webhooks]
                                                            rebuild into fresh tables and compare; exit 3 on a difference
            database: PAYMENTS_DB_URL, PAYMENTS_DB_USER, PAYMENTS_DB_PASSWORD, or the embedded one of
                      PAYMENTS_DATA_DIR (default ./data); --db-url=, --db-user=, --db-password=, --data-dir= override them
            """;

    /** Exit codes: 0 done, 2 bad arguments, 3 a verification found differences, 1 anything else. */
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE_ERROR = 2;
    static final int DIFFERENCES = 3;

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
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "audit-logback.xml");
        }
        System.exit(new AuditCommandLine(System.out, System.err, System.getenv()).run(args));
    }

    public int run(String[] args) {
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.print(USAGE);
            return USAGE_ERROR;
        }
        if (arguments.command == null || arguments.command.equals("help")) {
            out.print(USAGE);
            return arguments.command == null ? USAGE_ERROR : OK;
        }
        try (Database database = open(arguments)) {
            StoredEvents events = new StoredEvents(database.jdbc, JacksonSerializer.builder()
                    .objectMapper(PaymentJson.newObjectMapper())
                    .revisionResolver(new AnnotationRevisionResolver())
                    .build());
            return switch (arguments.command) {
                case "history" -> history(events, arguments);
                case "view" -> view(events, arguments);
                case "report" -> report(events, database.jdbc, arguments);
                case "verify" -> verify(events, database.jdbc, arguments);
                case "replay" -> replay(events, database.jdbc, arguments);
                default -> {
                    err.println("unknown command " + arguments.command);
                    err.print(USAGE);
                    yield USAGE_ERROR;
                }
            };
        } catch (PaymentsException e) {
            err.println(e.description());
            return USAGE_ERROR;
        } catch (RuntimeException e) {
            err.println("audit failed: " + e.getMessage());
            return FAILED;
        }
    }

    private int history(StoredEvents events, Arguments arguments) throws PaymentsException {
        var session = AuditArguments.session(arguments.positional(0, "session_id"));
        var history = new SessionAudit(events).history(session);
        if (history.isEmpty()) {
            err.println("Session " + session.value() + " does not exist");
            return FAILED;
        }
        print(history.get());
        return OK;
    }

    private int view(StoredEvents events, Arguments arguments) {
        var session = AuditArguments.session(arguments.positional(0, "session_id"));
        var view = new SessionAudit(events).viewAt(session, AuditArguments.instant(arguments.option("at")),
                AuditArguments.position(arguments.option("position")), AuditArguments.version(arguments.option("version")));
        if (view.isEmpty()) {
            err.println("Session " + session.value() + " did not exist at that point");
            return FAILED;
        }
        print(view.get());
        return OK;
    }

    private int report(StoredEvents events, JdbcTemplate jdbc, Arguments arguments) {
        String project = AuditArguments.project(arguments.option("project"));
        AuditArguments.DateRange range = AuditArguments.range(arguments.option("from"), arguments.option("to"));
        boolean csv = AuditArguments.csv(arguments.option("format"));
        SettlementReport report = reconciliation(events, jdbc).report(project, range.from(), range.to(),
                arguments.has("ids") && AuditArguments.flag("ids", arguments.option("ids")));
        if (csv) {
            out.print(ReportFormats.csv(report));
        } else {
            print(ReportFormats.json(report));
        }
        return OK;
    }

    private int verify(StoredEvents events, JdbcTemplate jdbc, Arguments arguments) {
        String project = AuditArguments.project(arguments.option("project"));
        AuditArguments.DateRange range = AuditArguments.range(arguments.option("from"), arguments.option("to"));
        Reconciliation.Verification verification = reconciliation(events, jdbc).verify(project, range.from(), range.to());
        if (verification.matches()) {
            out.println("verified: the report of " + project + " from " + range.from() + " to " + range.to()
                    + " equals the event store folded up to position " + verification.position());
            return OK;
        }
        out.println(verification.differences().size() + " difference(s) between the read model and the event store "
                + "up to position " + verification.position() + ":");
        verification.differences().forEach(difference -> out.println("  " + difference));
        return DIFFERENCES;
    }

    private int replay(StoredEvents events, JdbcTemplate jdbc, Arguments arguments) {
        ProjectionReplay replay = new ProjectionReplay(events, List.of(new SessionViewsRebuild(jdbc),
                new SettlementRebuild(jdbc), new WebhookOutboxRebuild(jdbc)));
        var projections = AuditArguments.projections(replay, arguments.option("projection"));
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
    }

    /** One line per report: done and total, % done, events per second and the time left at that pace. */
    void progress(long done, long total, Duration elapsed) {
        double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
        double rate = done / seconds;
        double percent = total == 0 ? 100.0 : 100.0 * done / total;
        long left = rate <= 0 ? 0 : Math.round((total - done) / rate);
        out.printf("replayed %d of %d events (%.1f%%), %.0f events/s, %d s left%n", done, total, percent, rate, left);
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

    private Database open(Arguments arguments) {
        String url = arguments.optionOr("db-url", environment.get("PAYMENTS_DB_URL"));
        HikariConfig config = new HikariConfig();
        config.setMaximumPoolSize(2);
        config.setPoolName("audit");
        EmbeddedPostgresServer embedded = null;
        if (url != null && !url.isBlank()) {
            config.setJdbcUrl(url);
            config.setUsername(arguments.optionOr("db-user", environment.getOrDefault("PAYMENTS_DB_USER", "postgres")));
            config.setPassword(arguments.optionOr("db-password", environment.get("PAYMENTS_DB_PASSWORD")));
        } else {
            Path dataDirectory = Path.of(arguments.optionOr("data-dir", environment.getOrDefault("PAYMENTS_DATA_DIR", "./data")));
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

    /** {@code <command> [positional ...] [--name=value | --name ...]}. */
    record Arguments(String command, List<String> positionals, Map<String, String> options) {

        static Arguments parse(String[] args) {
            String command = null;
            List<String> positionals = new java.util.ArrayList<>();
            Map<String, String> options = new HashMap<>();
            for (String arg : args) {
                if (arg.startsWith("--")) {
                    int equals = arg.indexOf('=');
                    String name = equals < 0 ? arg.substring(2) : arg.substring(2, equals);
                    if (name.isEmpty()) {
                        throw new IllegalArgumentException("empty option " + arg);
                    }
                    options.put(name, equals < 0 ? "" : arg.substring(equals + 1));
                } else if (command == null) {
                    command = arg;
                } else {
                    positionals.add(arg);
                }
            }
            return new Arguments(command, positionals, options);
        }

        String positional(int index, String name) {
            if (positionals.size() <= index) {
                throw PaymentsException.invalidRequest(name + " is required");
            }
            return positionals.get(index);
        }

        String option(String name) {
            return options.get(name);
        }

        boolean has(String name) {
            return options.containsKey(name);
        }

        String optionOr(String name, String fallback) {
            return options.getOrDefault(name, fallback);
        }
    }
}
