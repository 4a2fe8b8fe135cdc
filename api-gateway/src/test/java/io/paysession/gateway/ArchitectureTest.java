package io.paysession.gateway;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * command-side, query-side and webhook-projector never import each other; payment-api imports none of them; the
 * gateway writes no SQL against the tables another module's migrations create; only the JDBC adapters of the event
 * store ({@code eventstore.jdbc} packages) touch the event store's table, so that the service runs on Axon Server.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.paysession");

    @Test
    void theCommandSideImportsNeitherTheQuerySideNorTheWebhookProjector() {
        noClasses().that().resideInAPackage("io.paysession.command..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.query..", "io.paysession.webhook..", "io.paysession.gateway..")
                .check(CLASSES);
    }

    @Test
    void theQuerySideImportsNeitherTheCommandSideNorTheWebhookProjector() {
        noClasses().that().resideInAPackage("io.paysession.query..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.command..", "io.paysession.webhook..", "io.paysession.gateway..")
                .check(CLASSES);
    }

    @Test
    void theWebhookProjectorImportsNeitherTheCommandSideNorTheQuerySide() {
        noClasses().that().resideInAPackage("io.paysession.webhook..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.command..", "io.paysession.query..", "io.paysession.gateway..")
                .check(CLASSES);
    }

    @Test
    void theSharedMessagesDependOnNoModule() {
        noClasses().that().resideInAPackage("io.paysession.api..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.command..", "io.paysession.query..", "io.paysession.webhook..",
                        "io.paysession.gateway..")
                .check(CLASSES);
    }

    /** The service's modules (the benchmark, a tool that reads a JDBC store's database from outside, is not one). */
    private static final List<String> SERVICE_MODULES = List.of("payment-api", "command-side", "query-side",
            "webhook-projector", "api-gateway");
    /** The only place code may name Axon's JDBC event table: the JDBC adapters of the event store's ports. */
    private static final String JDBC_ADAPTERS = "/eventstore/jdbc/";

    @Test
    void noCodeOutsideTheJdbcAdaptersNamesTheEventTable() throws IOException {
        List<String> inAdapters = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        for (String module : SERVICE_MODULES) {
            Path sources = Path.of("..", module, "src", "main", "java");
            assertThat(sources).as("main sources of " + module).isDirectory();
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).sorted().toList()) {
                    if (Files.readString(file).toLowerCase().contains("domain_event_entry")) {
                        String name = file.toString().replace('\\', '/');
                        (name.contains(JDBC_ADAPTERS) ? inAdapters : violations).add(name);
                    }
                }
            }
        }
        assertThat(inAdapters).as("the JDBC adapters name the table (the scan sees them)").isNotEmpty();
        assertThat(violations).as("read events through Axon's event store API, or put the SQL behind a port with a "
                + "JDBC adapter in an eventstore.jdbc package and an Axon Server adapter").isEmpty();
    }

    @Test
    void noCodeOutsideTheJdbcAdaptersBuildsSqlFromTheEventSchema() {
        noClasses().that().resideOutsideOfPackage("..eventstore.jdbc..")
                .should().callMethodWhere(new DescribedPredicate<JavaMethodCall>("reads a table or column name of "
                        + "Axon's EventSchema") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().isAssignableTo(EventSchema.class)
                                && !call.getName().equals("builder");
                    }
                })
                .check(CLASSES);
    }

    /** Migration folders of the gateway itself (its own tables, and the event store, tokens and tasks it sets up). */
    private static final Set<String> GATEWAY_MIGRATIONS = Set.of("gateway", "infra");
    private static final Pattern CREATE_TABLE = Pattern.compile("(?i)create\\s+table\\s+(?:if\\s+not\\s+exists\\s+)?(\\w+)");
    private static final Pattern STRING_LITERAL = Pattern.compile("(?s)\"\"\"(.*?)\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

    @Test
    void theGatewayWritesNoSqlAgainstAnotherModulesTables() throws IOException {
        Map<String, String> owners = tablesOfOtherModules();
        assertThat(owners).as("tables of command-side, query-side and webhook-projector, from their migrations")
                .containsValues("command", "query", "webhook");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).sorted().toList()) {
                violations.addAll(sqlAgainst(owners, file));
            }
        }
        assertThat(violations).as("the gateway calls the owning module's services instead").isEmpty();
    }

    /** Every table the migrations of another module create, with that module's migration folder. */
    static Map<String, String> tablesOfOtherModules() throws IOException {
        Map<String, String> owners = new TreeMap<>();
        for (Resource migration : new PathMatchingResourcePatternResolver().getResources("classpath*:db/migration/*/*.sql")) {
            String location = migration.getURL().toString();
            String parent = location.substring(0, location.lastIndexOf('/'));
            String folder = parent.substring(parent.lastIndexOf('/') + 1);
            if (GATEWAY_MIGRATIONS.contains(folder)) {
                continue;
            }
            Matcher table = CREATE_TABLE.matcher(new String(migration.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            while (table.find()) {
                owners.put(table.group(1).toLowerCase(), folder);
            }
        }
        return owners;
    }

    /** The string literals of a source file that name such a table after from, join, into, update or table. */
    static List<String> sqlAgainst(Map<String, String> owners, Path file) throws IOException {
        List<String> found = new ArrayList<>();
        Matcher literal = STRING_LITERAL.matcher(Files.readString(file));
        while (literal.find()) {
            String text = literal.group(1) != null ? literal.group(1) : literal.group(2);
            owners.forEach((table, owner) -> {
                if (Pattern.compile("(?i)\\b(from|join|into|update|table|truncate)\\s+" + table + "\\b").matcher(text).find()) {
                    found.add(file.getFileName() + ": SQL on " + table + " (a table of the " + owner + " migrations): " + text.strip());
                }
            });
        }
        return found;
    }
}
