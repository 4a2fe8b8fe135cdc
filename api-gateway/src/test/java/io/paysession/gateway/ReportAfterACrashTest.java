package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 15, gaps after a crash: a transaction takes a global index of the event store and does not commit
 * while later payments commit; the service is killed (SIGKILL) with that gap in its processors' tokens, and
 * the transaction is lost. Started again, with no new event arriving, the reconciliation report covers every
 * committed payment within seconds; while the transaction still ran, the report waited for it.
 */
class ReportAfterACrashTest {

    private final Path dataDirectory = TestServiceProperties.newDataDirectory("payments-gap");
    private final ServiceProcess service = new ServiceProcess(dataDirectory, Map.of());

    @AfterEach
    void stop() {
        service.close();
    }

    @Test
    void aGapLeftByATransactionTheCrashLostNoLongerHoldsTheReportBack() throws Exception {
        service.start();
        ServiceClient client = new ServiceClient(service.baseUrl());
        TestPartner partner = client.register(new TestPartner("gap-shop"),
                WebhookReceiver.url(WebhookReceiver.freePort(), "gap-shop"));
        List<String> paid = new ArrayList<>();
        paid.add(pay(partner));
        paid.add(pay(partner));

        long gap;
        try (Connection lost = database()) {
            lost.setAutoCommit(false);
            gap = appendWithoutCommitting(lost);
            // committed after the gap: the settlement processor handles them, its token keeps the gap
            paid.add(pay(partner));
            paid.add(pay(partner));
            long lastEvent = lastGlobalIndex();
            assertThat(lastEvent).isGreaterThan(gap);
            JsonNode whileRunning = report(client, partner);
            assertThat(whileRunning.path("position").asLong())
                    .as("a transaction still running holds the report back: its events may yet commit")
                    .isLessThan(gap);

            service.kill();
            lost.rollback(); // the crash lost it: the index is never filled
        }

        service.start();
        // no new event: the report must get past the dead gap on its own, within seconds
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonNode report = report(client(service), partner);
            assertThat(report.path("position").asLong()).isGreaterThan(gap);
            assertThat(report.path("rows").findValues("ids").stream()
                    .flatMap(ids -> { List<String> list = new ArrayList<>(); ids.forEach(id -> list.add(id.asText())); return list.stream(); })
                    .toList()).hasSize(paid.size());
        });
        Answer verify = client(service).admin("GET", "/admin/v1/reports/reconciliation/verify?project="
                + partner.project() + "&from=" + today() + "&to=" + today());
        assertThat(verify.body().path("matches").asBoolean()).as(verify.toString()).isTrue();
    }

    private ServiceClient client(ServiceProcess process) {
        return new ServiceClient(process.baseUrl());
    }

    /** A card payment paid to the end; its session id. */
    private static String pay(TestPartner partner) {
        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");
        ServiceClient.confirm(partner, sessionId);
        await().atMost(Duration.ofSeconds(30)).until(() -> partner.post("/api/v1/session/status",
                ServiceClient.sessionRef(sessionId)).session().path("status").asText().equals("accepted"));
        return sessionId;
    }

    private static JsonNode report(ServiceClient client, TestPartner partner) {
        Answer answer = client.admin("GET", "/admin/v1/reports/reconciliation?project=" + partner.project()
                + "&from=" + today() + "&to=" + today() + "&ids=true");
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body().path("report");
    }

    private static LocalDate today() {
        return LocalDate.now(ZoneOffset.UTC);
    }

    /** What a command's transaction does first: appends an event, which takes the next global index. */
    private static long appendWithoutCommitting(Connection connection) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("insert into domain_event_entry (aggregate_identifier, "
                + "sequence_number, type, event_identifier, payload, payload_type, time_stamp) values ('ps_lost', 0, "
                + "'Session', gen_random_uuid()::text, '{}'::bytea, 'java.lang.String', '2026-11-25T00:00:00Z') "
                + "returning global_index")) {
            try (ResultSet result = insert.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    private long lastGlobalIndex() throws Exception {
        try (Connection connection = database();
             ResultSet result = connection.createStatement().executeQuery("select max(global_index) from domain_event_entry")) {
            result.next();
            return result.getLong(1);
        }
    }

    /** A connection to the service's embedded PostgreSQL, as a second client of it would open. */
    private Connection database() throws Exception {
        Path postgres = dataDirectory.resolve("postgres");
        int port = Integer.parseInt(Files.readAllLines(postgres.resolve("postmaster.pid"), StandardCharsets.UTF_8)
                .get(3).trim());
        Properties credentials = new Properties();
        credentials.setProperty("user", "postgres");
        Path password = dataDirectory.resolve("postgres.password");
        if (Files.exists(password)) {
            credentials.setProperty("password", Files.readString(password, StandardCharsets.UTF_8).trim());
        }
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", credentials);
    }
}
