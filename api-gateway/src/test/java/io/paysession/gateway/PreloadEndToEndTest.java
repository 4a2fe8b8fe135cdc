package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.preload.PreloadCommandLine;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.FaultyRails;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import io.paysession.query.audit.ProjectionReplay;
import io.paysession.query.audit.Reconciliation;
import io.paysession.query.audit.StoredEvents;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The benchmark's preload writes what the service writes: a store filled by {@code preload} before the service's
 * first start is one the service runs on as if it had made those sessions itself. The audit replay rebuilds
 * every projection identical to the preloaded tables, reconciliation verifies every preload partner's report,
 * a preloaded session of each kind has the events, status and audit history of a real session of its kind made
 * here through the API, the processes act on none of the preloaded events (no rail call, no webhook), and a new payment
 * after the preload goes through.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PreloadEndToEndTest {

    /** 400 cards paid, 100 of each other card kind, 50 of each payout kind and of each recurrent kind. */
    private static final int SESSIONS = 1000;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Set<String> PRELOAD_PROJECTS = Set.of("preload-1", "preload-2", "preload-3", "preload-4");

    private final Path dataDirectory = TestServiceProperties.newDataDirectory("payments-preload");
    private volatile String servicePublicKey;
    private final WebhookReceiver webhooks = new WebhookReceiver(() -> servicePublicKey);
    private ConfigurableApplicationContext application;
    private JdbcTemplate jdbc;
    private long railCallsPreloaded;
    private Set<String> preloadedOperations;
    private long headOfThePreload;

    @BeforeAll
    void preloadThenStart() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = new PreloadCommandLine(new PrintStream(out, true, StandardCharsets.UTF_8), System.err, Map.of())
                .run(new String[]{"--sessions=" + SESSIONS, "--data-dir=" + dataDirectory});
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("preload done: " + SESSIONS + " sessions");

        Map<String, Object> settings = new java.util.LinkedHashMap<>(TestServiceProperties.forDataDirectory(dataDirectory));
        // every money-moving rail call and every query of the rails, logged by operation id
        settings.put("payments.test.faulty-rails", "true");
        application = EndToEndTestBase.startService(settings);
        servicePublicKey = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/service/public-key"))
                .GET().build()).text();
        jdbc = application.getBean(JdbcTemplate.class);
        railCallsPreloaded = count("select count(*) from rail_call");
        preloadedOperations = new java.util.HashSet<>(jdbc.queryForList("select operation_id from rail_call",
                String.class));
        headOfThePreload = count("select max(global_index) from domain_event_entry");
    }

    @AfterAll
    void stop() {
        if (application != null) {
            application.close();
        }
        webhooks.close();
    }

    @Test
    void theAuditReplayRebuildsEveryProjectionIdenticalToThePreloadedTables() {
        ProjectionReplay replay = application.getBean(ProjectionReplay.class);

        List<ProjectionReplay.Result> results = replay.run(replay.select("all"), (done, total, elapsed) -> { });

        assertThat(results).extracting(ProjectionReplay.Result::projection)
                .containsExactly("session-views", "settlement", "webhooks");
        results.forEach(result -> assertThat(result.differences()).as(result.projection()).isEmpty());
        assertThat(results.get(0).rows()).isGreaterThanOrEqualTo(SESSIONS);
        // every finished session sent ready_to_confirm (or started a payout) and payment_finished at least
        assertThat(results.get(2).rows()).isGreaterThanOrEqualTo(2L * SESSIONS);
        assertThat(results.get(1).rows()).isGreaterThan(SESSIONS / 2);
    }

    @Test
    void reconciliationVerifiesTheReportOfEveryPreloadPartner() {
        Reconciliation reconciliation = application.getBean(Reconciliation.class);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);

        for (String project : PRELOAD_PROJECTS) {
            Reconciliation.Verification verification = reconciliation.verify(project, today.minusDays(60), today);
            assertThat(verification.differences()).as(project).isEmpty();
            assertThat(verification.matches()).as(project).isTrue();
            assertThat(reconciliation.report(project, today.minusDays(60), today, false).rows())
                    .as(project + " settled something").isNotEmpty();
        }
    }

    @Test
    void aPreloadedSessionHasTheEventsStatusAndHistoryOfARealOneOfItsKind() throws Exception {
        TestPartner real = registeredPartner();
        // the mix repeats every 20 sessions from ps_1: ps_1 a card paid (preload-1), ps_13 a card declined
        // (preload-1), ps_15 cancelled before confirmation (preload-3); see SessionMix.Kind.of
        String paid = initiated(real, "4242424242424242");
        confirm(real, paid);
        assertThat(webhooks.await(paid, "payment_finished", WAIT).signatureValid()).isTrue();
        String declined = initiated(real, "4000000000000002");
        confirm(real, declined);
        webhooks.await(declined, "payment_finished", WAIT);
        String cancelled = initiated(real, "4242424242424242");
        Answer cancel = real.post("/api/v1/session/cancel", EndToEndTestBase.sessionRef(cancelled));
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(200);
        webhooks.await(cancelled, "payment_finished", WAIT);

        assertSameForm(real, paid, partner("preload-1"), "ps_1", "accepted");
        assertSameForm(real, declined, partner("preload-1"), "ps_13", "cancelled");
        assertSameForm(real, cancelled, partner("preload-3"), "ps_15", "cancelled");
        assertThat(number(paid)).as("ids go on after the preloaded ones").isGreaterThan(SESSIONS);
    }

    @Test
    void preloadedCapturesRefundsAndPayoutsHaveTheFormOfRealOnes() throws Exception {
        TestPartner real = registeredPartner("auto");
        TestPartner delayed = registeredPartner("delayed");
        // ps_9 held then captured (preload-4), ps_11 paid then partly refunded (preload-2), ps_17 a payout paid
        // (preload-2), ps_18 a payout declined (preload-3)
        String held = initiated(delayed, "4242424242424242");
        confirm(delayed, held);
        webhooks.await(held, "ready_to_capture", WAIT);
        Answer capture = delayed.post("/api/v1/session/capture", EndToEndTestBase.sessionRef(held));
        assertThat(capture.status()).as(capture.toString()).isEqualTo(200);
        webhooks.await(held, "payment_finished", WAIT);
        String refunded = initiated(real, "4242424242424242");
        confirm(real, refunded);
        webhooks.await(refunded, "payment_finished", WAIT);
        ObjectNode refund = EndToEndTestBase.sessionRef(refunded);
        refund.putObject("amount_details").put("amount", 5000).put("currency", "RUB");
        Answer refundAnswer = real.post("/api/v1/session/refund", refund);
        assertThat(refundAnswer.status()).as(refundAnswer.toString()).isEqualTo(200);
        webhooks.await(refunded, "payment_refunded", WAIT);
        String paidOut = payout(real, "GB82WEST12345698765432");
        String notPaidOut = payout(real, "GB33BUKB20201555555555");

        assertSameForm(delayed, held, partner("preload-4"), "ps_9", "accepted");
        assertSameForm(real, refunded, partner("preload-2"), "ps_11", "accepted");
        assertSameForm(real, paidOut, partner("preload-2"), "ps_17", "accepted");
        assertSameForm(real, notPaidOut, partner("preload-3"), "ps_18", "cancelled");
    }

    @Test
    void preloadedRecurrentGrantsAndMerchantInitiatedChargesHaveTheFormOfRealOnes() throws Exception {
        TestPartner real = registeredPartner();
        // ps_19 a card paid granting a recurrent token, ps_20 a merchant-initiated charge with it (both preload-1)
        ObjectNode first = cardBody("4242424242424242");
        first.putObject("payment_options").put("recurrent", true);
        String granted = initiated(real, first);
        confirm(real, granted);
        String token = webhooks.await(granted, "payment_finished", WAIT).session().path("acquiring_payments").path(0)
                .path("recurrent").path("token").asText();
        String status = "{\"recurrent\":{\"token\":\"" + token + "\"}}";
        await().atMost(WAIT).until(() -> real.post("/api/v1/recurrent/status", status).status() == 200);
        ObjectNode charge = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        charge.putObject("payment_details").put("type", "recurrent").putObject("recurrent").put("token", token)
                .put("initiator", "merchant");
        charge.putObject("amount_details").put("amount", 10000).put("currency", "RUB");
        charge.putObject("customer").put("reference", "real-customer-" + java.util.UUID.randomUUID());
        String merchantInitiated = initiated(real, charge);
        confirm(real, merchantInitiated);
        webhooks.await(merchantInitiated, "payment_finished", WAIT);

        assertSameForm(real, granted, partner("preload-1"), "ps_19", "accepted");
        assertSameForm(real, merchantInitiated, partner("preload-1"), "ps_20", "accepted");
        StoredEvents events = application.getBean(StoredEvents.class);
        String preloadedToken = events.ofAggregate("ps_19").stream()
                .filter(event -> event.simpleType().equals("RecurrentTokenGrantedEvent"))
                .map(event -> events.payloadJson(event).path("token").asText()).findFirst().orElseThrow();
        assertThat(storedForm(events, preloadedToken)).as("the token's own events")
                .isEqualTo(storedForm(events, token)).hasSize(2);
    }

    @Test
    void theProcessesActOnNoPreloadedEvent() throws Exception {
        // a new payment goes through, and every processor gets past the preload's head: had one started below it,
        // it would have handled the preloaded events on its way (the payment process asking the rails about them)
        TestPartner real = registeredPartner();
        String paid = initiated(real, "4242424242424242");
        confirm(real, paid);
        assertThat(webhooks.await(paid, "payment_finished", WAIT).signatureValid()).isTrue();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> count(
                "select count(*) from token_entry where coalesce((convert_from(token, 'UTF8')::jsonb ->> 'index')"
                        + "::bigint, -1) < ?", headOfThePreload) == 0);

        assertThat(FaultyRails.calls(dataDirectory)).as("rail calls and queries").isNotEmpty()
                .allSatisfy(call -> assertThat(preloadedOperations).doesNotContain(call.split(" ")[1]));

        assertThat(count("select count(*) from rail_call where session_id = ?", paid)).isEqualTo(1);
        assertThat(count("select count(*) from rail_call")).as("no rail call for a preloaded session")
                .isEqualTo(railCallsPreloaded + count("select count(*) from rail_call where called_at > now() - "
                        + "interval '10 minutes'"));
        assertThat(count("select count(*) from rail_call where called_at > now() - interval '10 minutes' "
                + "and session_id in (select session_id from session_view where project like 'preload-%')")).isZero();
        assertThat(count("select count(*) from sandbox_rail_ledger where payment_id in (select "
                + "jsonb_array_elements(view -> 'payments') ->> 'id' from session_view where project like 'preload-%')"))
                .as("the sandbox rails saw no preloaded payment").isZero();
        assertThat(count("select count(*) from webhook_notification where project like 'preload-%' "
                + "and (state <> 'DELIVERED' or attempts <> 1)")).as("no preloaded webhook sent again").isZero();
        assertThat(count("select count(*) from webhook_attempt a join webhook_notification n on n.id = a.notification_id"
                + " where n.project like 'preload-%'")).isEqualTo(count(
                "select count(*) from webhook_notification where project like 'preload-%'"));
        assertThat(webhooks.all()).extracting(Received::sessionId).allSatisfy(session ->
                assertThat(number(session)).isGreaterThan(SESSIONS));
        List<String> tokens = jdbc.queryForList("select processor_name || ' ' || segment from token_entry order by 1",
                String.class);
        assertThat(tokens).containsExactly("payment-process 0", "payment-process 1", "payment-process 2",
                "payment-process 3", "payment-process 4", "payment-process 5", "payment-process 6",
                "payment-process 7", "settlement 0");
        assertThat(headOfThePreload).isGreaterThan(5L * SESSIONS);
    }

    /** Same event types, payload fields and metadata keys; same status and history, but for ids, times, amounts. */
    private void assertSameForm(TestPartner realPartner, String realSession, TestPartner preloadPartner,
                                String preloadedSession, String status) throws Exception {
        StoredEvents events = application.getBean(StoredEvents.class);
        assertThat(storedForm(events, preloadedSession)).isEqualTo(storedForm(events, realSession));

        Answer realStatus = realPartner.post("/api/v1/session/status", EndToEndTestBase.sessionRef(realSession));
        Answer preloadedStatus = preloadPartner.post("/api/v1/session/status",
                EndToEndTestBase.sessionRef(preloadedSession));
        assertThat(preloadedStatus.status()).as(preloadedStatus.toString()).isEqualTo(200);
        assertThat(preloadedStatus.session().path("status").asText()).isEqualTo(status);
        assertThat(form(preloadedStatus.body())).isEqualTo(form(realStatus.body()));

        JsonNode realHistory = adminGet("/admin/v1/sessions/" + realSession + "/events");
        JsonNode preloadedHistory = adminGet("/admin/v1/sessions/" + preloadedSession + "/events");
        assertThat(form(preloadedHistory)).isEqualTo(form(realHistory));
    }

    /** Each stored event of the session: its type, its payload's form and its metadata's keys. */
    private static List<String> storedForm(StoredEvents events, String session) {
        List<String> form = new ArrayList<>();
        for (StoredEvents.StoredEvent event : events.ofAggregate(session)) {
            form.add(event.simpleType() + " " + form(events.payloadJson(event)) + " "
                    + new TreeSet<>(events.metaData(event).keySet()));
        }
        return form;
    }

    /**
     * A JSON value's form: objects with their field names (sorted) and the form of each field, arrays with the
     * forms of their elements, text and numbers as their kind; the words that say what happened (a status, a type,
     * an error code, an endpoint) are kept.
     */
    private static String form(JsonNode node) {
        if (node.isObject()) {
            Set<String> names = new TreeSet<>();
            node.fieldNames().forEachRemaining(names::add);
            StringBuilder text = new StringBuilder("{");
            for (String name : names) {
                JsonNode value = node.get(name);
                boolean kept = value.isTextual() && Set.of("status", "type", "code", "endpoint", "error_code",
                        "apiVersion", "captureMode").contains(name);
                text.append(name).append(':').append(kept ? value.asText() : form(value)).append(',');
            }
            return text.append('}').toString();
        }
        if (node.isArray()) {
            StringBuilder text = new StringBuilder("[");
            for (Iterator<JsonNode> elements = node.elements(); elements.hasNext(); ) {
                text.append(form(elements.next())).append(',');
            }
            return text.append(']').toString();
        }
        return node.getNodeType().name();
    }

    private TestPartner partner(String project) throws Exception {
        String pem = Files.readString(dataDirectory.resolve("preload-partners").resolve(project + ".key"));
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) Pem.readPrivateKey(pem);
        KeyPair keys = new KeyPair(KeyFactory.getInstance("RSA").generatePublic(
                new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent())), key);
        return TestPartner.withKeys(project, keys).at(baseUrl());
    }

    private TestPartner registeredPartner() {
        return registeredPartner("auto");
    }

    private TestPartner registeredPartner(String captureMode) {
        TestPartner partner = new TestPartner("real-" + java.util.UUID.randomUUID().toString().substring(0, 8))
                .at(baseUrl());
        ObjectNode body = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", webhooks.url(partner.project()))
                .put("capture_mode", captureMode);
        body.putObject("fees").put("percent_bp", 250).put("fixed", 30);
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/admin/v1/partners"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
        return partner;
    }

    private String initiated(TestPartner partner, String card) {
        return initiated(partner, cardBody(card));
    }

    /** A card payment as the preload writes them: no metadata, a customer reference. */
    private static ObjectNode cardBody(String card) {
        ObjectNode body = EndToEndTestBase.cardPayment(card, "123");
        body.remove("metadata");
        // a body of its own: the same signed body twice is refused as a replay
        body.putObject("customer").put("reference", "real-customer-" + java.util.UUID.randomUUID());
        return body;
    }

    /** A payment started with {@code body}, once its signed ready_to_confirm has come; its session id. */
    private String initiated(TestPartner partner, ObjectNode body) {
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String session = init.session().path("id").asText();
        assertThat(webhooks.await(session, "ready_to_confirm", WAIT).signatureValid()).isTrue();
        return session;
    }

    /** A payout to a bank account as the preload writes them, confirmed after ready_to_confirm, finished. */
    private String payout(TestPartner partner, String iban) {
        ObjectNode body = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        body.putObject("payment_method").put("type", "bank_account").putObject("bank_account")
                .put("system_type", "iban").putObject("iban").put("account", iban);
        body.putObject("amount_details").put("amount", 30_000).put("currency", "RUB");
        body.putObject("customer").put("reference", "real-customer-" + java.util.UUID.randomUUID());
        body.putObject("participant_details").putObject("recipient").put("first_name", "Ivan").put("last_name", "Petrov");
        Answer init = partner.post("/api/v1/session/init/payout", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String session = init.session().path("id").asText();
        webhooks.await(session, "ready_to_confirm", WAIT);
        confirm(partner, session);
        webhooks.await(session, "payment_finished", WAIT);
        return session;
    }

    private void confirm(TestPartner partner, String session) {
        Answer confirm = partner.post("/api/v1/session/confirm", EndToEndTestBase.sessionRef(session));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
    }

    private JsonNode adminGet(String path) {
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .header("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN).GET().build());
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body();
    }

    private static long number(String sessionId) {
        return Long.parseLong(sessionId.substring("ps_".length()));
    }

    private long count(String sql, Object... args) {
        Long value = jdbc.queryForObject(sql, Long.class, args);
        return value == null ? 0 : value;
    }

    private String baseUrl() {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) application).getWebServer().getPort();
    }
}
