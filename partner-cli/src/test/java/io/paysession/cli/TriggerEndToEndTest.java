package io.paysession.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code trigger} runs every scenario against the service in its own process, and the partner's endpoint (registered
 * as its webhook URL) receives each scenario's real sequence of webhooks, signed by the service.
 */
class TriggerEndToEndTest {

    private static final String ADMIN_TOKEN = "trigger-test-admin-token-0123456789abcdef";
    private static final Pattern SESSION = Pattern.compile("(?m)^  session (ps_\\d+)$");

    private static RunningService service;
    private static Path work;
    private static HttpServer endpoint;
    private static final Map<String, List<String>> RECEIVED = new ConcurrentHashMap<>();
    private static final List<String> INVALID = new CopyOnWriteArrayList<>();
    private static volatile PublicKey serviceKey;

    @BeforeAll
    static void start() throws IOException {
        work = Files.createTempDirectory("partner-cli-trigger");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("payments.data.dir", work.resolve("data").toString());
        settings.put("payments.admin.token", ADMIN_TOKEN);
        settings.put("payments.demo-partner.enabled", "false");
        settings.put("payments.sandbox.card-latency-min", "20ms");
        settings.put("payments.sandbox.card-latency-max", "80ms");
        settings.put("payments.webhooks.poll-interval", "50ms");
        settings.put("payments.webhooks.allowed-networks", "127.0.0.0/8");
        service = RunningService.start(work, settings);
        serviceKey = Keys.readPublicKey(new ServiceApi(Context.newHttpClient(), service.baseUrl()).servicePublicKey(),
                "the service key");
        endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.createContext("/webhooks", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (!Keys.verify(serviceKey, body, exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN"))) {
                INVALID.add(new String(body, StandardCharsets.UTF_8));
            }
            JsonNode webhook = ServiceApi.JSON.readTree(body);
            RECEIVED.computeIfAbsent(webhook.at("/session/id").asText(), id -> new CopyOnWriteArrayList<>())
                    .add(webhook.path("type").asText());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        endpoint.start();
    }

    @AfterAll
    static void stop() {
        if (endpoint != null) {
            endpoint.stop(0);
        }
        if (service != null) {
            service.close();
        }
    }

    @Test
    void everyScenarioRunsToItsEndAndThePartnersEndpointGetsItsWebhooks() throws Exception {
        Path key = partner("shop", "auto");
        Path heldKey = partner("shop-held", "delayed");
        Map<String, List<List<String>>> expected = new LinkedHashMap<>();
        List<String> paid = List.of("ready_to_confirm", "payment_finished");
        List<String> withPayer = List.of("ready_to_confirm", "action_required", "payment_finished");
        expected.put("card-succeeded", List.of(paid));
        expected.put("card-declined", List.of(paid));
        expected.put("3ds-approved", List.of(withPayer));
        expected.put("3ds-declined", List.of(withPayer));
        expected.put("partial-refund", List.of(List.of("ready_to_confirm", "payment_finished", "payment_refunded")));
        expected.put("ewallet", List.of(withPayer));
        expected.put("bank-app", List.of(withPayer));
        expected.put("qr", List.of(withPayer));
        expected.put("instant-payment", List.of(withPayer));
        expected.put("payout-card", List.of(paid));
        expected.put("payout-card-token", List.of(paid));
        expected.put("payout-card-widget", List.of(paid));
        expected.put("payout-iban", List.of(paid));
        expected.put("payout-instant", List.of(paid));
        expected.put("recurrent", List.of(paid, paid));
        expected.put("delayed-capture", List.of(List.of("ready_to_confirm", "ready_to_capture", "payment_finished")));
        assertThat(expected.keySet()).as("every scenario is tried").containsExactlyInAnyOrderElementsOf(
                TriggerCommand.SCENARIOS.keySet());

        Map<String, List<String>> sessions = new LinkedHashMap<>();
        for (String scenario : expected.keySet()) {
            boolean held = scenario.equals("delayed-capture");
            CliRun run = cli(held ? "shop-held" : "shop", held ? heldKey : key, "trigger", scenario);
            assertThat(run.status()).as(scenario + "\n" + run).isZero();
            assertThat(run.out()).as(scenario).contains("scenario " + scenario, "done: ");
            List<String> ids = new ArrayList<>();
            Matcher matcher = SESSION.matcher(run.out());
            while (matcher.find()) {
                ids.add(matcher.group(1));
            }
            sessions.put(scenario, ids);
        }

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (String scenario : expected.keySet()) {
            List<String> ids = sessions.get(scenario);
            assertThat(ids).as(scenario).hasSize(expected.get(scenario).size());
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                List<String> want = expected.get(scenario).get(i);
                while (RECEIVED.getOrDefault(id, List.of()).size() < want.size() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertThat(RECEIVED.get(id)).as(scenario + " " + id + " at the partner's endpoint")
                        .containsExactlyElementsOf(want);
            }
        }
        assertThat(INVALID).as("webhooks not signed by the service").isEmpty();
    }

    @Test
    void aCaptureScenarioOnAPartnerThatCapturesAtOnceSaysSoAndTheListNamesEveryScenario() throws Exception {
        Path key = partner("shop-auto", "auto");
        CliRun held = cli("shop-auto", key, "trigger", "delayed-capture");
        assertThat(held.status()).isEqualTo(1);
        assertThat(held.err()).contains("error: the payment was captured at once", "capture_mode is auto");

        CliRun list = cli("shop-auto", key, "trigger");
        assertThat(list.status()).isZero();
        TriggerCommand.SCENARIOS.keySet().forEach(name -> assertThat(list.out()).contains(name));
        CliRun unknown = cli("shop-auto", key, "trigger", "card-stolen");
        assertThat(unknown.status()).isEqualTo(1);
        assertThat(unknown.err()).contains("error: no scenario card-stolen");
    }

    record CliRun(int status, String out, String err) {
    }

    private static CliRun cli(String project, Path key, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Context context = new Context(Map.of("PAYMENTS_BASE_URL", service.baseUrl(), "PAYMENTS_PROJECT",
                project + "-" + SUFFIX, "PAYMENTS_KEY", key.toString()), work, work.resolve("home"),
                new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true),
                Context.newHttpClient(), Clock.systemUTC());
        int status = PartnerCli.run(context, args);
        return new CliRun(status, out.toString(), err.toString());
    }

    private static final String SUFFIX = Long.toString(System.nanoTime() % 1_000_000);

    /** A partner of its own, its key made by {@code keys generate}, its webhooks to the test's endpoint. */
    private static Path partner(String name, String captureMode) throws Exception {
        String project = name + "-" + SUFFIX;
        Path directory = work.resolve("keys-" + project);
        CliRun generated = cli(name, directory, "keys", "generate", "--out", directory.toString());
        assertThat(generated.status()).as(generated.toString()).isZero();
        String body = ServiceApi.JSON.createObjectNode().put("project", project)
                .put("public_key", Files.readString(directory.resolve("public.pem")))
                .put("webhook_url", "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/webhooks")
                .put("capture_mode", captureMode).toString();
        var answer = new ServiceApi(Context.newHttpClient(), service.baseUrl()).send(HttpRequest.newBuilder(
                        URI.create(service.baseUrl() + "/admin/v1/partners")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), service.baseUrl());
        assertThat(answer.status()).as(answer.text()).isEqualTo(201);
        return directory.resolve("private.pem");
    }
}
