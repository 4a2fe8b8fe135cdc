package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.audit.AuditCommandLine;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10: a session's history with the request behind each event; the session as it was at any instant
 * or position, equal to what {@code session/status} answered at that moment; the rebuild of every
 * projection equal to the live tables; and the same from the command line of the jar.
 */
class SessionAuditEndToEndTest extends EndToEndTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    private JdbcTemplate jdbc;

    /** What {@code session/status} answered, and when it was asked. */
    record Seen(Instant at, JsonNode session) {
    }

    @Test
    void theViewAtEachMomentEqualsWhatSessionStatusAnsweredThenThroughACaptureAndTwoRefunds() {
        TestPartner partner = registeredPartner("audit", "delayed");
        List<Seen> seen = new ArrayList<>();
        Answer init = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"));
        String sessionId = init.session().path("id").asText();

        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        seen.add(status(partner, sessionId));
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
        seen.add(status(partner, sessionId));
        ObjectNode capture = sessionRef(sessionId);
        capture.putObject("amount_details").put("amount", 8000).put("currency", "rub");
        assertThat(partner.post("/api/v1/session/capture", capture).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        seen.add(status(partner, sessionId));
        for (long amount : new long[] {3000, 2000}) {
            int before = refundedWebhooks(sessionId);
            ObjectNode refund = sessionRef(sessionId);
            refund.putObject("amount_details").put("amount", amount).put("currency", "rub");
            assertThat(partner.post("/api/v1/session/refund", refund).status()).isEqualTo(200);
            awaitRefundedWebhooks(sessionId, before + 1);
            seen.add(status(partner, sessionId));
        }

        JsonNode history = admin("GET", "/admin/v1/sessions/" + sessionId + "/events", null,
                TestServiceProperties.ADMIN_TOKEN).body().path("events");
        List<String> types = new ArrayList<>();
        history.forEach(event -> types.add(event.path("type").asText()));
        assertThat(types).containsSubsequence("SessionCreatedEvent", "PaymentConfirmedEvent", "PaymentAuthorizedEvent",
                "PaymentCaptureRequestedEvent", "PaymentSucceededEvent", "RefundRequestedEvent", "RefundAcceptedEvent", "RefundRequestedEvent",
                "RefundAcceptedEvent");
        assertThat(history.toString()).as("card data masked as stored").doesNotContain("4242424242424242");
        JsonNode created = history.path(0);
        assertThat(created.path("request").path("endpoint").asText()).isEqualTo("POST /api/v1/session/init/payment");
        assertThat(created.path("request").path("project").asText()).isEqualTo(partner.project());
        assertThat(created.path("request").path("request_id").asText()).isEqualTo(init.headers()
                .firstValue("X-Request-Id").orElseThrow());
        long previous = -1;
        for (JsonNode event : history) {
            assertThat(event.path("position").asLong()).as("in store order").isGreaterThan(previous);
            previous = event.path("position").asLong();
        }

        for (Seen moment : seen) {
            JsonNode last = lastEventAtOrBefore(history, moment.at());
            assertThat(view(sessionId, "at=" + moment.at())).as("the view at " + moment.at()).isEqualTo(moment.session());
            assertThat(view(sessionId, "at=" + last.path("time").asText()))
                    .as("the view at the time of " + last.path("type").asText()).isEqualTo(moment.session());
            assertThat(view(sessionId, "position=" + last.path("position").asLong()))
                    .as("the view at position " + last.path("position").asLong()).isEqualTo(moment.session());
        }
        JsonNode asV2 = view(sessionId, "version=v2");
        assertThat(asV2.has("payment_list")).isTrue();
        assertThat(asV2.has("acquiring_payments")).isFalse();
        Answer beforeItExisted = admin("GET", "/admin/v1/sessions/" + sessionId + "/view?position="
                + (history.path(0).path("position").asLong() - 1), null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(beforeItExisted.status()).isEqualTo(404);
        assertThat(admin("GET", "/admin/v1/sessions/" + sessionId + "/view?at=yesterday", null,
                TestServiceProperties.ADMIN_TOKEN).errorCode()).isEqualTo("invalid_request");
        assertThat(admin("GET", "/admin/v1/sessions/" + sessionId + "/events", null, "not-the-admin-token").status())
                .isEqualTo(401);
    }

    @Test
    void rebuildingEveryProjectionReproducesTheLiveTables() {
        TestPartner partner = registeredPartner("replay");
        String sessionId = paid(partner);
        partner.post("/api/v1/session/refund", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT);

        Answer replay = admin("POST", "/admin/v1/replay?projection=all", null, TestServiceProperties.ADMIN_TOKEN);

        assertThat(replay.status()).as(replay.toString()).isEqualTo(200);
        assertThat(replay.body().path("identical").asBoolean()).as(replay.toString()).isTrue();
        List<String> projections = new ArrayList<>();
        replay.body().path("projections").forEach(result -> {
            projections.add(result.path("projection").asText());
            assertThat(result.path("rows").asLong()).as(result.toString()).isPositive();
        });
        assertThat(projections).containsExactly("session-views", "settlement", "webhooks");
        // the rebuilt tables hold what the live ones hold, row for row
        assertThat(count("session_view_rebuild")).isGreaterThanOrEqualTo(1);
        assertThat(admin("POST", "/admin/v1/replay?projection=everything", null, TestServiceProperties.ADMIN_TOKEN)
                .errorCode()).isEqualTo("invalid_request");
    }

    @Test
    void theCommandLineOfTheJarAttachesToTheRunningServiceAndAudits() throws Exception {
        TestPartner partner = registeredPartner("cli");
        String sessionId = paid(partner);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String range = "--from=" + today.minusDays(1) + " --to=" + today.plusDays(1);
        awaitSettled(partner.project(), today);

        Run history = audit("history " + sessionId);
        assertThat(history.exit()).as(history.err()).isZero();
        JsonNode events = JSON.readTree(history.out());
        assertThat(events.size()).isEqualTo(admin("GET", "/admin/v1/sessions/" + sessionId + "/events", null,
                TestServiceProperties.ADMIN_TOKEN).body().path("events").size());

        Run view = audit("view " + sessionId + " --version=v2");
        assertThat(JSON.readTree(view.out()).path("status").asText()).isEqualTo("accepted");

        Run csv = audit("report --project=" + partner.project() + " " + range + " --format=csv --ids");
        assertThat(csv.exit()).as(csv.err()).isZero();
        assertThat(csv.out()).startsWith("section,day,currency,method,operation,count,gross,fees,net,ids,session_id,operation_id,amount,"
                        + "error_code,position\n")
                .contains(",rub,card,payment,1,10000,280,9720,pm_");

        Run verify = audit("verify --project=" + partner.project() + " " + range);
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).startsWith("verified: the report of " + partner.project());

        Run replay = audit("replay --projection=settlement");
        assertThat(replay.exit()).as(replay.out() + replay.err()).isZero();
        assertThat(replay.out()).containsPattern("replayed \\d+ of \\d+ events \\(100\\.0%\\), \\d+ events/s, 0 s left")
                .contains("settlement: ").contains("identical to the live table");

        Run bad = audit("report --project=" + partner.project() + " --from=2026-13-01 --to=2026-11-01");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("from must be a UTC day");
    }

    record Run(int exit, String out, String err) {
    }

    private Run audit(String commandLine) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of(commandLine.split(" ")));
        args.add("--data-dir=" + DATA_DIRECTORY);
        int exit = new AuditCommandLine(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of()).run(args.toArray(String[]::new));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private void awaitSettled(String project, LocalDate today) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (admin("GET", "/admin/v1/reports/reconciliation?project=" + project + "&from=" + today.minusDays(1)
                + "&to=" + today.plusDays(1), null, TestServiceProperties.ADMIN_TOKEN).body().path("report").path("rows")
                .isEmpty()) {
            assertThat(System.currentTimeMillis()).as("the payment reaches the report").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private Seen status(TestPartner partner, String sessionId) {
        Instant at = Instant.now();
        Answer status = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(status.status()).isEqualTo(200);
        return new Seen(at, status.session());
    }

    private JsonNode view(String sessionId, String query) {
        Answer answer = admin("GET", "/admin/v1/sessions/" + sessionId + "/view?" + query, null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body().path("session");
    }

    private static JsonNode lastEventAtOrBefore(JsonNode history, Instant at) {
        JsonNode last = null;
        for (JsonNode event : history) {
            if (!Instant.parse(event.path("time").asText()).isAfter(at)) {
                last = event;
            }
        }
        assertThat(last).isNotNull();
        return last;
    }

    private String paid(TestPartner partner) {
        String sessionId = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"))
                .session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        return sessionId;
    }

    private static int refundedWebhooks(String sessionId) {
        return (int) WEBHOOKS.forSession(sessionId).stream().filter(webhook -> webhook.type().equals("payment_refunded"))
                .count();
    }

    private static void awaitRefundedWebhooks(String sessionId, int count) {
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (refundedWebhooks(sessionId) < count) {
            assertThat(System.currentTimeMillis()).isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private long count(String table) {
        return jdbc.queryForObject("select count(*) from " + table, Long.class);
    }
}
