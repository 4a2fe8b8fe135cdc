package io.paysession.gateway;

import io.paysession.api.session.CardMethod;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.command.RefusedConfigurationException;
import io.paysession.command.rails.FpsBankDirectory;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PayoutRail;
import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The service in the production profile, started as an operator starts it (the environment variables of the
 * README as its settings) on a fresh database of the test suite's embedded PostgreSQL: the sandbox is refused
 * unless explicitly allowed, announced loudly when it is, and absent with real adapters.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProductionProfileTest extends EndToEndTestBase {

    private static final String REFUSED = "APPLICATION FAILED TO START";

    @Autowired
    private EmbeddedPostgresServer postgres;

    @Autowired
    private JdbcTemplate sharedDatabase;

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();
    private String database;

    @AfterEach
    void stop() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void withoutARailsSettingTheProductionProfileRefusesToStartAndTouchesNothing(CapturedOutput output) {
        Map<String, String> environment = operatorEnvironment();

        assertThatThrownBy(() -> start(environment))
                .satisfies(failure -> assertThat(refusal(failure).getMessage())
                        .contains("payments.rails (PAYMENTS_RAILS) is not set: the production profile has no default")
                        .contains("payments.sandbox.allow-in-production=true"));
        assertThat(output.getOut()).contains(REFUSED, "payments.rails (PAYMENTS_RAILS) is not set");
        assertThat(tablesOf(database)).as("refused before the database was migrated").isZero();
    }

    @Test
    void sandboxRailsInTheProductionProfileNeedTheExplicitOptIn(CapturedOutput output) {
        Map<String, String> environment = operatorEnvironment();
        environment.put("PAYMENTS_RAILS", "sandbox");

        assertThatThrownBy(() -> start(environment))
                .satisfies(failure -> assertThat(refusal(failure).getMessage())
                        .contains("payments.rails=sandbox in the production profile")
                        .contains("PAYMENTS_SANDBOX_ALLOW_IN_PRODUCTION"));
        assertThat(output.getOut()).contains(REFUSED);
        assertThat(tablesOf(database)).isZero();

        environment.put("PAYMENTS_SANDBOX_ALLOW_IN_PRODUCTION", "false");
        assertThatThrownBy(() -> start(environment)).satisfies(failure -> assertThat(refusal(failure)).isNotNull());
    }

    @Test
    void withTheOptInTheSandboxRunsInTheProductionProfileAndSaysSoLoudly(CapturedOutput output) {
        Map<String, String> environment = operatorEnvironment();
        environment.put("PAYMENTS_RAILS", "sandbox");
        environment.put("PAYMENTS_SANDBOX_ALLOW_IN_PRODUCTION", "true");

        ConfigurableApplicationContext application = start(environment);

        assertThat(output.getOut().lines().filter(line -> line.contains(" WARN ")
                && line.contains("SANDBOX RAILS IN THE PRODUCTION PROFILE")))
                .as("a WARN when the rails are chosen and another with the start-up report").hasSize(2);
        assertThat(output.getOut()).contains("rails:          sandbox IN THE PRODUCTION PROFILE");
        Answer page = get(application, "/sandbox/interactions/" + "ab".repeat(20));
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.text()).as("the payer pages' own answer: they exist").contains("There is no such payment page");
        assertThat(application.getBeanNamesForAnnotation(ConditionalOnSandboxRails.class)).isNotEmpty();
    }

    @Test
    void withRealAdaptersNoBeanOfTheSandboxExistsAndNoSandboxPathAnswers(CapturedOutput output) {
        Map<String, String> environment = operatorEnvironment();
        environment.put("PAYMENTS_RAILS", "acme");

        ConfigurableApplicationContext application = start(environment, realAdapters(method -> true));

        assertThat(application.getBeanNamesForAnnotation(ConditionalOnSandboxRails.class)).isEmpty();
        assertThat(output.getOut()).contains("rails:          acme (real adapters)")
                .doesNotContain("SANDBOX RAILS IN THE PRODUCTION PROFILE");
        String interaction = "/sandbox/interactions/" + "ab".repeat(20);
        for (Answer answer : List.of(get(application, interaction), post(application, interaction + "/approve"),
                post(application, interaction + "/decline"), get(application, "/sandbox/webhooks/demo"),
                post(application, "/sandbox/webhooks/demo"),
                // the sandbox's time travel (docs/sandbox.md)
                post(application, "/sandbox/v1/clock/advance"),
                // the operator dashboard is off unless PAYMENTS_DASHBOARD_ENABLED (docs/dashboard.md)
                get(application, "/dashboard/sign-in"), get(application, "/dashboard/sessions"),
                post(application, "/dashboard/sign-in"))) {
            assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
            assertThat(answer.errorCode()).as("the API's answer to an unknown path").isEqualTo("invalid_request");
        }

        // the instant-payment banks are the adapter's, not the sandbox's test directory
        TestPartner partner = new ServiceClient(baseUrl(application)).register(new TestPartner("prod-banks"),
                "https://shop.example/hooks");
        Answer banks = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl(application) + "/api/v1/fps/banks"))
                .header("X-PARTNER-PROJECT", partner.project())
                .header("X-PARTNER-SIGN", partner.sign("[]".getBytes(StandardCharsets.UTF_8)))
                .GET().build());
        assertThat(banks.status()).as(banks.toString()).isEqualTo(200);
        assertThat(banks.body().path("banks").findValuesAsText("id")).containsExactly("100000000999");

        // signed by a partner, the sandbox's time travel is still an unknown path
        byte[] advance = "{\"session_id\":\"ps_1\",\"duration\":\"PT21M\"}".getBytes(StandardCharsets.UTF_8);
        Answer timeTravel = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl(application)
                        + "/sandbox/v1/clock/advance"))
                .header("Content-Type", "application/json")
                .header("X-PARTNER-PROJECT", partner.project())
                .header("X-PARTNER-SIGN", partner.sign(advance))
                .POST(HttpRequest.BodyPublishers.ofByteArray(advance)).build());
        assertThat(timeTravel.status()).as(timeTravel.toString()).isEqualTo(404);
        assertThat(timeTravel.errorCode()).isEqualTo("invalid_request");
    }

    @Test
    void realRailsWithoutAnAdapterForEveryRailStopTheStartNamingWhatIsMissing(CapturedOutput output) {
        Map<String, String> environment = operatorEnvironment();
        environment.put("PAYMENTS_RAILS", "acme");

        assertThatThrownBy(() -> start(environment)).satisfies(failure -> assertThat(refusal(failure).getMessage())
                .contains("payments.rails=acme: no adapter serves payments (PaymentRail), payouts (PayoutRail), "
                        + "the instant-payment bank directory (FpsBankDirectory)"));
        assertThat(tablesOf(database)).isZero();

        assertThatThrownBy(() -> start(environment, realAdapters(method -> method instanceof CardMethod
                || method instanceof RecurrentMethod)))
                .satisfies(failure -> assertThat(refusal(failure).getMessage()).contains(
                        "payments.rails=acme: no adapter serves payments by wallet, bank_app_pay, qr_app_pay, "
                                + "faster_payment_system, faster_payment_system_binding."));
        assertThat(output.getOut()).contains(REFUSED);
    }

    @Test
    void withoutAStrongAdminTokenTheProductionProfileRefusesToStartAndGeneratesNone(CapturedOutput output) {
        Map<String, String> environment = operatorEnvironment();
        environment.put("PAYMENTS_RAILS", "acme");
        Path dataDirectory = Path.of(environment.get("PAYMENTS_DATA_DIR"));

        for (String absent : new String[]{null, "   "}) {
            environment.put("PAYMENTS_ADMIN_TOKEN", absent);
            assertThatThrownBy(() -> start(environment, realAdapters(method -> true)))
                    .satisfies(failure -> assertThat(refusal(failure).getMessage())
                            .contains("PAYMENTS_ADMIN_TOKEN is not set: the production profile does not generate")
                            .contains("at least 32 characters"));
        }
        assertThat(dataDirectory.resolve("admin-token")).as("no token generated").doesNotExist();

        String weak = "0123456789abcdef0123456789abcde";
        environment.put("PAYMENTS_ADMIN_TOKEN", weak);
        assertThatThrownBy(() -> start(environment, realAdapters(method -> true)))
                .satisfies(failure -> assertThat(refusal(failure).getMessage())
                        .contains("PAYMENTS_ADMIN_TOKEN has 31 characters, fewer than the 32 required")
                        .doesNotContain(weak));
        assertThat(output.getOut()).contains(REFUSED).doesNotContain(weak).doesNotContain("(generated, kept in");

        environment.put("PAYMENTS_ADMIN_TOKEN", weak + "f");
        ConfigurableApplicationContext application = start(environment, realAdapters(method -> true));
        ServiceClient operator = new ServiceClient(baseUrl(application));
        assertThat(operator.admin("GET", "/admin/v1/partners/nobody", null, weak + "f").status())
                .as("the admin API takes the configured token").isEqualTo(404);
        assertThat(operator.admin("GET", "/admin/v1/partners/nobody", null, weak + "e").status()).isEqualTo(401);
        assertThat(output.getOut()).contains("admin token:    from PAYMENTS_ADMIN_TOKEN");
    }

    /** What an operator sets for the production profile, on a new database; {@code null} values are left out. */
    private Map<String, String> operatorEnvironment() {
        database = "production_" + HexFormat.of().formatHex(randomBytes(6));
        sharedDatabase.execute("create database " + database);
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("spring.profiles.active", "production");
        environment.put("PAYMENTS_DB_URL", postgres.jdbcUrl().replace("/postgres?", "/" + database + "?"));
        environment.put("PAYMENTS_DB_USER", "postgres");
        environment.put("PAYMENTS_DB_PASSWORD", postgres.password());
        environment.put("PAYMENTS_DB_POOL_SIZE", "8");
        environment.put("PAYMENTS_VAULT_KEY", Base64.getEncoder().encodeToString(randomBytes(32)));
        environment.put("PAYMENTS_ADMIN_TOKEN", TestServiceProperties.ADMIN_TOKEN);
        environment.put("PAYMENTS_DATA_DIR", TestServiceProperties.newDataDirectory("payments-production").toString());
        environment.put("SERVER_PORT", "0");
        return environment;
    }

    @SafeVarargs
    private ConfigurableApplicationContext start(Map<String, String> environment,
                                                 ApplicationContextInitializer<ConfigurableApplicationContext>... beans) {
        List<String> arguments = new ArrayList<>();
        environment.forEach((name, value) -> {
            if (value != null) {
                arguments.add("--" + name + "=" + value);
            }
        });
        // the same logging as the shared test application (EndToEndTestBase.LOG_FILE_SETTING says why)
        for (String setting : List.of(LOG_FILE_SETTING, LOG_LEVEL_SETTING, WEB_LOG_LEVEL_SETTING)) {
            arguments.add("--" + setting);
        }
        ConfigurableApplicationContext application = new SpringApplicationBuilder(PaymentSessionServiceApplication.class)
                .initializers(beans)
                .run(arguments.toArray(String[]::new));
        started.add(application);
        return application;
    }

    /**
     * Real adapters as an operator's build would add them: beans of the rail ports. These stand-ins handle the
     * payment methods {@code handles} accepts and are never asked anything (no payment is made here); the bank
     * directory lists one bank the sandbox does not know.
     */
    private static ApplicationContextInitializer<ConfigurableApplicationContext> realAdapters(Predicate<Object> handles) {
        return context -> {
            GenericApplicationContext beans = (GenericApplicationContext) context;
            beans.registerBean("acmePaymentRail", PaymentRail.class, () -> standIn(PaymentRail.class, handles));
            beans.registerBean("acmePayoutRail", PayoutRail.class, () -> standIn(PayoutRail.class, handles));
            beans.registerBean("acmeFpsBanks", FpsBankDirectory.class,
                    () -> () -> List.of(new FpsBankDirectory.Bank("100000000999", "Acme Bank", "Акме банк")));
        };
    }

    /** An adapter of {@code port} whose yes/no questions {@code handles} answers; any other call fails. */
    private static <T> T standIn(Class<T> port, Predicate<Object> handles) {
        return port.cast(Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[]{port}, (proxy, method, args) ->
                switch (method.getName()) {
                    case "toString" -> "stand-in " + port.getSimpleName();
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> {
                        if (method.getReturnType() == boolean.class && args != null && args.length == 1) {
                            yield handles.test(args[0]);
                        }
                        throw new UnsupportedOperationException("a stand-in adapter is not asked " + method.getName());
                    }
                }));
    }

    private static RefusedConfigurationException refusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RefusedConfigurationException refused) {
                return refused;
            }
        }
        throw new AssertionError("the start failed for another reason than its configuration", failure);
    }

    private int tablesOf(String name) {
        return new JdbcTemplate(new org.springframework.jdbc.datasource.DriverManagerDataSource(
                postgres.jdbcUrl().replace("/postgres?", "/" + name + "?"), "postgres", postgres.password()))
                .queryForObject("select count(*) from pg_tables where schemaname = 'public'", Integer.class);
    }

    private static String baseUrl(ConfigurableApplicationContext application) {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) application).getWebServer().getPort();
    }

    private static Answer get(ConfigurableApplicationContext application, String path) {
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl(application) + path)).GET().build());
    }

    private static Answer post(ConfigurableApplicationContext application, String path) {
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl(application) + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
