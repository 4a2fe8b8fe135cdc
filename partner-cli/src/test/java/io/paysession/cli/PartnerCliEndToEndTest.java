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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command of the partner's command line against the service running in this JVM on its default (embedded
 * PostgreSQL, sandbox rails, the demo partner with the key it writes into its data directory), as a partner's
 * developer would use it on the first day.
 */
class PartnerCliEndToEndTest {

    private static final String ADMIN_TOKEN = "cli-test-admin-token-0123456789abcdef";
    private static final String CARD_PAYMENT = """
            {"payment_details":{"type":"card","card":{"type":"bank_card","bank_card":{"number":"4242424242424242",\
            "expiration_month":"12","expiration_year":"34","security_code":"123"}}},\
            "amount_details":{"amount":10000,"currency":"rub"},"customer":{"reference":"customer-%d"}}""";
    /** Customer references are short: a long run of digits could pass for a card number and be refused. */
    private static final java.util.concurrent.atomic.AtomicInteger CUSTOMERS = new java.util.concurrent.atomic.AtomicInteger();

    private static RunningService service;
    private static Path work;
    private static Path data;
    private static String baseUrl;

    /** One command line's exit status and what it printed. */
    record Run(int status, String out, String err) {
        JsonNode json() {
            try {
                return ServiceApi.JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + out + "\nstderr: " + err, e);
            }
        }
    }

    @BeforeAll
    static void startTheService() throws IOException {
        // the partner's working directory, with the service's data in ./data as the README's first command makes it
        work = Files.createTempDirectory("partner-cli-e2e");
        data = work.resolve("data");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("payments.data.dir", data.toString());
        settings.put("payments.admin.token", ADMIN_TOKEN);
        settings.put("payments.sandbox.card-latency-min", "20ms");
        settings.put("payments.sandbox.card-latency-max", "80ms");
        settings.put("payments.webhooks.poll-interval", "50ms");
        settings.put("payments.webhooks.allowed-networks", "127.0.0.0/8");
        service = RunningService.start(work, settings);
        baseUrl = service.baseUrl();
        // the demo partner is registered just after the service starts listening: a read of its own (no side
        // effect) is answered from then on
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (demo("request", "notification/list", "{}").status() != 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the demo partner was not registered within 60 s");
            }
            sleep(100);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stopTheService() {
        if (service != null) {
            service.close();
        }
    }

    private static Run cli(Map<String, String> environment, String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Context context = new Context(environment, work, work.resolve("home"),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), Context.newHttpClient(), Clock.systemUTC());
        int status = PartnerCli.run(context, args);
        return new Run(status, out.toString(), err.toString());
    }

    /** As the demo partner of the running service: the settings from the environment, as a developer exports them. */
    private static Run demo(String... args) {
        return cli(Map.of("PAYMENTS_BASE_URL", baseUrl, "PAYMENTS_PROJECT", "demo"), "", args);
    }

    private static String cardPayment() {
        return CARD_PAYMENT.formatted(CUSTOMERS.incrementAndGet());
    }

    @Test
    void requestSignsTheExactBytesSendsThemAndPrintsTheAnswer() {
        Run init = demo("request", "session/init/payment", cardPayment());

        assertThat(init.status()).as(init.toString()).isZero();
        assertThat(init.err()).contains("POST /api/v1/session/init/payment", "signed as demo", "-> HTTP 200");
        String sessionId = init.json().path("session").path("id").asText();
        assertThat(sessionId).startsWith("ps_");

        Run status = demo("request", "--api", "v2", "session/status", "{\"session_id\":\"" + sessionId + "\"}");
        assertThat(status.status()).as(status.toString()).isZero();
        assertThat(status.err()).contains("POST /api/v2/session/status");
        assertThat(status.json().path("session").path("id").asText()).isEqualTo(sessionId);

        Run fromStdin = cli(Map.of("PAYMENTS_BASE_URL", baseUrl), "{\"session_id\":\"" + sessionId + "\"}",
                "request", "session/status", "-");
        assertThat(fromStdin.status()).as(fromStdin.toString()).isZero();
        assertThat(fromStdin.json().path("session").path("id").asText()).isEqualTo(sessionId);
    }

    @Test
    void anIdempotencyKeyGetsTheFirstAnswerAgain() throws IOException {
        Path body = work.resolve("payment-" + System.nanoTime() + ".json");
        Files.writeString(body, cardPayment());
        String key = "order-" + System.nanoTime();

        Run first = demo("request", "--idempotency-key", key, "session/init/payment", "@" + body);
        Run again = demo("request", "--idempotency-key", key, "session/init/payment", "@" + body);

        assertThat(first.status()).as(first.toString()).isZero();
        assertThat(again.status()).as(again.toString()).isZero();
        assertThat(again.json().path("session").path("id").asText())
                .isEqualTo(first.json().path("session").path("id").asText());
    }

    @Test
    void aRefusalIsPrintedWithItsCodeAndTheExitStatusSaysSo() {
        Run refused = demo("request", "session/status", "{\"session_id\":\"ps_999999999\"}");

        assertThat(refused.status()).isEqualTo(1);
        assertThat(refused.json().path("error").path("code").asText()).isNotBlank();
        assertThat(refused.err()).contains("-> HTTP 4");
    }

    @Test
    void keysGenerateMakesAPairTheOperatorRegistersAndWhoseSignaturesTheServiceAccepts() throws Exception {
        Path directory = work.resolve("keys-" + System.nanoTime());
        String project = "cli-shop-" + System.nanoTime() % 1_000_000;

        Run generated = demo("keys", "generate", "--out", directory.toString(), "--project", project);

        assertThat(generated.status()).as(generated.toString()).isZero();
        String publicPem = Files.readString(directory.resolve("public.pem"));
        assertThat(generated.out()).contains(publicPem.trim(), "POST /admin/v1/partners", "\"project\" : \"" + project);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve("private.pem"))))
                .isEqualTo("rw-------");
        Run again = demo("keys", "generate", "--out", directory.toString());
        assertThat(again.status()).isEqualTo(1);
        assertThat(again.err()).contains("error: ", "already holds a key pair", "--force").doesNotContain("Exception");

        register(project, publicPem);
        Run init = cli(Map.of("PAYMENTS_BASE_URL", baseUrl), "", "request", "--project", project, "--key",
                directory.resolve("private.pem").toString(), "session/init/payment", cardPayment());
        assertThat(init.status()).as(init.toString()).isZero();
        assertThat(init.json().path("session").path("id").asText()).startsWith("ps_");

        Run wrongKey = cli(Map.of("PAYMENTS_BASE_URL", baseUrl), "", "request", "--project", "demo", "--key",
                directory.resolve("private.pem").toString(), "session/init/payment", cardPayment());
        assertThat(wrongKey.status()).isEqualTo(1);
        assertThat(wrongKey.json().path("error").path("code").asText()).isEqualTo("authentication_error");
        assertThat(wrongKey.err()).contains("hint: the service refused the partner", "registered for project demo");
    }

    @Test
    void listenShowsTheWebhooksAndForwardsEachUnchangedToALocalEndpoint() throws Exception {
        List<Map<String, String>> received = new CopyOnWriteArrayList<>();
        HttpServer endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.createContext("/hooks", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(Map.of("body", new String(body, StandardCharsets.UTF_8),
                    "signature", exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN"),
                    "id", exchange.getRequestHeaders().getFirst("X-PARTNER-WEBHOOK-ID"),
                    "key_id", String.valueOf(exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN-KEY-ID"))));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        endpoint.start();
        try {
            String forwardTo = "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/hooks";
            String since = Instant.now().minusSeconds(1).toString();
            // a partner of its own, so that the webhooks listened to are this test's only
            Partner shop = newPartner();
            CompletableFuture<Run> listening = CompletableFuture.supplyAsync(() -> shop.cli("listen", "--forward-to",
                    forwardTo, "--since", since, "--interval", "200ms", "--count", "2", "--for", "60s"));

            String sessionId = shop.cli("request", "session/init/payment", cardPayment()).json().path("session")
                    .path("id").asText();
            JsonNode inInbox = awaitWebhook(shop.project(), sessionId, "ready_to_confirm");
            Run confirm = shop.cli("request", "session/confirm", "{\"session_id\":\"" + sessionId + "\"}");
            assertThat(confirm.status()).as(confirm.out() + confirm.err()).isZero();

            // the sandbox inbox shows the exact bytes and the signature received: the CLI checks them
            Path inboxBody = work.resolve("inbox-" + System.nanoTime() + ".json");
            Files.writeString(inboxBody, inInbox.path("raw_body").asText());
            Run inboxValid = demo("verify-webhook", "--body", inboxBody.toString(), "--signature",
                    inInbox.path("signature").asText());
            assertThat(inboxValid.status()).as(inboxValid.out() + inboxValid.err()).isZero();

            Run listen = listening.get(90, TimeUnit.SECONDS);
            assertThat(listen.status()).as(listen.toString()).isZero();
            assertThat(listen.out()).contains("ready_to_confirm  " + sessionId, "payment_finished  " + sessionId,
                    "-> " + forwardTo + " HTTP 204");
            assertThat(received).hasSize(2);
            String servicePem = new ServiceApi(Context.newHttpClient(), baseUrl).servicePublicKey();
            var serviceKey = Keys.readPublicKey(servicePem, "the service key");
            assertThat(received).allSatisfy(webhook -> assertThat(Keys.verify(serviceKey,
                    webhook.get("body").getBytes(StandardCharsets.UTF_8), webhook.get("signature")))
                    .as("forwarded with the service's own signature").isTrue());
            assertThat(received).extracting(webhook -> ServiceApi.JSON.readTree(webhook.get("body")).path("type").asText())
                    .containsExactly("ready_to_confirm", "payment_finished");

            // verify-webhook on what the endpoint received: valid, and invalid with one byte changed
            Path body = work.resolve("webhook-" + System.nanoTime() + ".json");
            Files.writeString(body, received.get(1).get("body"));
            Run valid = demo("verify-webhook", "--body", body.toString(), "--signature", received.get(1).get("signature"));
            assertThat(valid.status()).as(valid.out() + valid.err()).isZero();
            assertThat(valid.out()).startsWith("valid");
            // with the key the forwarded webhook names, looked up in GET /service/public-keys
            Run byKeyId = demo("verify-webhook", "--body", body.toString(), "--signature",
                    received.get(1).get("signature"), "--key-id", received.get(1).get("key_id"));
            assertThat(byKeyId.status()).as(byKeyId.out() + byKeyId.err()).isZero();
            assertThat(byKeyId.out()).startsWith("valid").contains(received.get(1).get("key_id"));
            Run unknownKey = demo("verify-webhook", "--body", body.toString(), "--signature",
                    received.get(1).get("signature"), "--key-id", "service-key-999");
            assertThat(unknownKey.status()).isEqualTo(1);
            assertThat(unknownKey.out()).startsWith("INVALID").contains("not published");
            Path keyFile = work.resolve("service-" + System.nanoTime() + ".pem");
            Files.writeString(keyFile, servicePem);
            Files.writeString(body, received.get(1).get("body").replace("succeeded", "Succeeded"));
            Run altered = cli(Map.of(), "", "verify-webhook", "--body", body.toString(), "--signature",
                    received.get(1).get("signature"), "--service-key", keyFile.toString());
            assertThat(altered.status()).isEqualTo(1);
            assertThat(altered.out()).startsWith("INVALID");
        } finally {
            endpoint.stop(0);
        }
    }

    @Test
    void settingsComeFromAProfileOfTheConfigurationFile() throws IOException {
        Path config = work.resolve("config-" + System.nanoTime() + ".properties");
        Files.writeString(config, "staging.base_url=" + baseUrl + "\nstaging.project=demo\nstaging.key="
                + data.resolve("demo-partner/private.pem") + "\n");

        Run fromProfile = cli(Map.of("PAYMENTS_CLI_CONFIG", config.toString()), "", "request", "--profile", "staging",
                "session/init/payment", cardPayment());
        assertThat(fromProfile.status()).as(fromProfile.toString()).isZero();
        assertThat(fromProfile.err()).contains("signed as demo");

        Run unknown = cli(Map.of(), "", "request", "--config", config.toString(), "--profile", "production",
                "session/status", "{}");
        assertThat(unknown.status()).isEqualTo(1);
        assertThat(unknown.err()).contains("error: no profile production in " + config).doesNotContain("at io.");
    }

    @Test
    void aMissingKeyOrAnUnreachableServiceIsOneClearLine() {
        Run noKey = cli(Map.of("PAYMENTS_BASE_URL", baseUrl), "", "request", "--key", "nowhere/private.pem",
                "session/status", "{}");
        assertThat(noKey.status()).isEqualTo(1);
        assertThat(noKey.err().strip()).startsWith("error: no private key at").doesNotContain("\n");

        Run unreachable = cli(Map.of(), "", "request", "--base-url", "http://127.0.0.1:1", "--key",
                data.resolve("demo-partner/private.pem").toString(), "session/status", "{}");
        assertThat(unreachable.status()).isEqualTo(1);
        assertThat(unreachable.err().strip()).startsWith("error: http://127.0.0.1:1 does not answer")
                .doesNotContain("\n");

        Run notJson = demo("request", "session/status", "{not json");
        assertThat(notJson.status()).isEqualTo(1);
        assertThat(notJson.err()).contains("error: the body is not JSON");
    }

    @Test
    void everyCommandHasItsHelp() {
        List<List<String>> commands = List.of(List.of(), List.of("keys"), List.of("keys", "generate"),
                List.of("request"), List.of("listen"), List.of("trigger"), List.of("verify-webhook"));
        for (List<String> command : commands) {
            List<String> withHelp = new java.util.ArrayList<>(command);
            withHelp.add("--help");
            String[] args = withHelp.toArray(String[]::new);
            Run help = cli(Map.of(), "", args);
            assertThat(help.status()).as(String.join(" ", args)).isZero();
            assertThat(help.out()).as(String.join(" ", args)).contains("Usage: payments-cli");
        }
        Run usage = cli(Map.of(), "", "request");
        assertThat(usage.status()).isEqualTo(2);
        assertThat(usage.err()).contains("Missing required parameter", "METHOD");
    }

    /** A partner with a key pair of its own, made by {@code keys generate} and registered by the operator. */
    record Partner(String project, Path key) {
        Run cli(String... args) {
            List<String> all = new java.util.ArrayList<>(List.of(args));
            return PartnerCliEndToEndTest.cli(Map.of("PAYMENTS_BASE_URL", baseUrl, "PAYMENTS_PROJECT", project,
                    "PAYMENTS_KEY", key.toString()), "", all.toArray(String[]::new));
        }
    }

    private static Partner newPartner() throws Exception {
        String project = "cli-" + System.nanoTime() % 100_000_000;
        Path directory = work.resolve("keys-" + project);
        Run generated = demo("keys", "generate", "--out", directory.toString(), "--project", project);
        assertThat(generated.status()).as(generated.toString()).isZero();
        register(project, Files.readString(directory.resolve("public.pem")));
        return new Partner(project, directory.resolve("private.pem"));
    }

    private static void register(String project, String publicPem) throws Exception {
        String body = ServiceApi.JSON.createObjectNode().put("project", project).put("public_key", publicPem)
                .put("webhook_url", baseUrl + "/sandbox/webhooks/" + project).put("capture_mode", "auto").toString();
        var answer = new ServiceApi(Context.newHttpClient(), baseUrl).send(HttpRequest.newBuilder(
                        URI.create(baseUrl + "/admin/v1/partners")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), baseUrl);
        assertThat(answer.status()).as(answer.text()).isEqualTo(201);
    }

    /** The sandbox inbox's entry for the session's webhook of that type, once it arrived. */
    private static JsonNode awaitWebhook(String project, String sessionId, String type) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            var inbox = new ServiceApi(Context.newHttpClient(), baseUrl).send(HttpRequest.newBuilder(
                    URI.create(baseUrl + "/sandbox/webhooks/" + project)).GET().build(), baseUrl);
            for (JsonNode webhook : inbox.json().path("webhooks")) {
                if (webhook.path("body").path("session").path("id").asText().equals(sessionId)
                        && webhook.path("body").path("type").asText().equals(type)) {
                    return webhook;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no " + type + " webhook for " + sessionId);
    }
}
