package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.session.SessionId;
import io.paysession.command.erasure.SessionKeys;
import io.paysession.gateway.erasure.StoredEventsEncryption;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.StoredText;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22, erasure by crypto-shredding (docs/erasure.md), over HTTP: a customer's personal data is stored encrypted,
 * and after {@code POST /admin/v1/erasures} no table and no log line holds any of it, every fold (status, point-in-time
 * view, history, replay) shows {@code "[erased]"} where it was and nothing else changed, the reconciliation and the
 * audit export are the same as before, and another customer's data is untouched.
 */
class ErasureEndToEndTest extends EndToEndTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    private JdbcTemplate jdbc;
    @Autowired
    private Serializer serializer;
    @Autowired
    @Qualifier("eventSerializer")
    private Serializer eventSerializer;
    @Autowired
    private StoredEventsEncryption encryption;
    @Autowired
    private SessionKeys sessionKeys;

    /** Whatever a test left, the other tests find every stored event encrypted. */
    @AfterEach
    void encrypted() {
        encryption.run();
    }

    @Test
    void aCustomersPersonalDataIsErasedEverywhereAndNothingElseChanges() throws Exception {
        Instant start = Instant.now().minusSeconds(1);
        TestPartner partner = registeredPartner("erasure");
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String reference = "customer-" + tag;
        String email = "jane." + tag + "@example.org";
        String note = "gift for Jane " + tag;
        String description = "Order of Jane Roe " + tag;
        String returnUrl = "https://shop.example/thanks?who=jane-" + tag;
        StringBuilder letters = new StringBuilder();
        tag.chars().forEach(c -> letters.append((char) (Character.isDigit(c) ? 'g' + (c - '0') : c)));
        String recipient = "Jane Roe" + letters.substring(0, 1).toUpperCase() + letters.substring(1);
        String instantDescription = "Instant order of Jane " + tag;
        List<String> personal = List.of(reference, email, note, description, returnUrl, recipient, instantDescription);
        String otherEmail = "john." + tag + "@example.org";

        String idempotencyKey = "erasure-" + tag;
        ObjectNode paymentBody = cardPayment("4242424242424242", "123");
        customer(paymentBody, reference, email);
        paymentBody.put("metadata", note);
        paymentBody.putObject("payment_options").put("description", description).put("return_url", returnUrl);
        Answer init = partner.post("/api/v1/session/init/payment", paymentBody.toString(), idempotencyKey);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String paid = init.session().path("id").asText();
        WEBHOOKS.await(paid, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(paid)).status()).isEqualTo(200);
        WEBHOOKS.await(paid, "payment_finished", WEBHOOK_WAIT);

        ObjectNode payoutBody = JsonNodeFactory.instance.objectNode();
        payoutBody.putObject("payment_method").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242");
        payoutBody.putObject("amount_details").put("amount", 1000).put("currency", "rub");
        payoutBody.putObject("participant_details").putObject("recipient").put("full_name", recipient);
        customer(payoutBody, reference, email);
        payoutBody.put("metadata", "payout " + UUID.randomUUID());
        String paidOut = initiatedAndConfirmed(partner, "/api/v1/session/init/payout", payoutBody);
        WEBHOOKS.await(paidOut, "payment_finished", WEBHOOK_WAIT);

        // an instant payment that grants a recurrent token: the token keeps its method, with the description
        ObjectNode instantBody = JsonNodeFactory.instance.objectNode();
        instantBody.putObject("payment_details").put("type", "faster_payment_system")
                .putObject("faster_payment_system").put("description", instantDescription);
        instantBody.putObject("amount_details").put("amount", 3000).put("currency", "rub");
        instantBody.putObject("payment_options").put("recurrent", true);
        customer(instantBody, reference, email);
        instantBody.put("metadata", "instant " + UUID.randomUUID());
        String instant = initiatedAndConfirmed(partner, "/api/v1/session/init/payment", instantBody);
        payerAnswers(WEBHOOKS.await(instant, "action_required", WEBHOOK_WAIT).session().path("acquiring_payments")
                .path(0).path("customer_interaction").path("inform").path("qr").path("content").asText(), true);
        WEBHOOKS.await(instant, "payment_finished", WEBHOOK_WAIT);

        ObjectNode otherBody = cardPayment("4242424242424242", "321");
        customer(otherBody, "customer-other-" + tag, otherEmail);
        otherBody.put("metadata", "order " + UUID.randomUUID());
        String other = initiatedAndConfirmed(partner, "/api/v1/session/init/payment", otherBody);
        WEBHOOKS.await(other, "payment_finished", WEBHOOK_WAIT);

        // a session of the customer still in flight: created, not paid
        ObjectNode pendingBody = JsonNodeFactory.instance.objectNode();
        pendingBody.putObject("amount_details").put("amount", 5000).put("currency", "rub");
        customer(pendingBody, reference, email);
        pendingBody.put("metadata", "pending " + UUID.randomUUID());
        Answer created = partner.post("/api/v1/session/create", pendingBody);
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        String pending = created.session().path("id").asText();

        // stored encrypted: the event store holds none of the values, while the service reads them
        assertThat(jdbc.queryForList("select convert_from(payload, 'UTF8') from domain_event_entry where aggregate_identifier in (?, ?, ?)",
                String.class, paid, paidOut, pending)).isNotEmpty()
                .allSatisfy(payload -> personal.forEach(value -> assertThat(payload).doesNotContain(value)))
                .anySatisfy(payload -> assertThat(payload).contains("pii:v1:"));
        String statusBefore = status(partner, paid);
        assertThat(statusBefore).contains(email, reference, note, description, returnUrl);
        assertThat(history(paid)).contains(email);
        Instant beforeErasure = Instant.now();
        Thread.sleep(1100);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String reportQuery = "?project=" + partner.project() + "&from=" + today.minusDays(1) + "&to=" + today.plusDays(1);
        JsonNode reportBefore = awaitReport(reportQuery, 4);
        List<String> exportBefore = export(start, beforeErasure);
        assertThat(String.join("\n", exportBefore)).contains(paid, paidOut).doesNotContain(email, reference, recipient);
        int webhooksBefore = WEBHOOKS.forSession(paid).size();
        assertThat(StoredText.placesHolding(jdbc, personal)).as("what is derived from the events, in clear before")
                .contains("session_view.view", "webhook_notification.body", "idempotency_key.response_body",
                        "recurrent_token.source")
                .doesNotContain("domain_event_entry.payload");

        // refused while a session is in flight, naming it; nothing erased
        Answer refused = erase(partner.project(), reference);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.errorDescription()).contains(pending).doesNotContain(paid);
        assertThat(status(partner, paid)).contains(email);
        assertThat(partner.post("/api/v1/session/cancel", sessionRef(pending)).status()).isEqualTo(200);

        Answer accepted = erase(partner.project(), reference);
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
        JsonNode erasure = accepted.body().path("erasure");
        assertThat(erasure.path("session_ids")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder(paid, paidOut, instant, pending);
        String erasureId = erasure.path("erasure_id").asText();
        awaitCompleted(erasureId);

        // no table, no log line holds any of the values
        assertThat(StoredText.placesHolding(jdbc, personal)).isEmpty();
        String log = Files.readString(Path.of(LOG_FILE), StandardCharsets.UTF_8);
        assertThat(log).contains(erasureId);
        personal.forEach(value -> assertThat(log).doesNotContain(value));

        // the partner's view: the same session with the personal values erased (and the time of the erasure)
        String statusAfter = status(partner, paid);
        String expected = statusBefore;
        for (String value : personal) {
            expected = expected.replace("\"" + value + "\"", "\"[erased]\"");
        }
        assertThat(withoutUpdatedAt(statusAfter)).isEqualTo(withoutUpdatedAt(expected));
        assertThat(status(partner, paidOut)).contains("[erased]").doesNotContain(recipient);
        assertThat(status(partner, other)).contains(otherEmail);

        // point-in-time view before the erasure, the history, the kept answer of the idempotency key
        Answer earlier = admin("GET", "/admin/v1/sessions/" + paid + "/view?at=" + beforeErasure, null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(earlier.status()).as(earlier.toString()).isEqualTo(200);
        assertThat(earlier.text()).contains("[erased]").doesNotContain(email);
        assertThat(history(paid)).contains("[erased]", "PersonalDataErasedEvent").doesNotContain(email);
        Answer retried = partner.post("/api/v1/session/init/payment", paymentBody.toString(), idempotencyKey);
        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.session().path("id").asText()).isEqualTo(paid);
        assertThat(retried.text()).contains("[erased]").doesNotContain(email, note);
        Thread.sleep(500);
        assertThat(WEBHOOKS.forSession(paid)).as("nothing is sent to the partner again").hasSize(webhooksBefore);

        // the erasure is on record: who and when, not what
        List<String> recorded = jdbc.queryForList("select convert_from(payload, 'UTF8') from domain_event_entry "
                + "where aggregate_identifier = ?", String.class, erasureId);
        assertThat(recorded).singleElement().satisfies(payload -> assertThat(payload)
                .contains("dpo-ticket-" + tag, partner.project(), "\"sessions\":4").doesNotContain(reference));

        // reconciliation, replay of every projection, the auditor's export: as before
        assertThat(awaitReport(reportQuery, 4)).isEqualTo(reportBefore);
        Answer verify = admin("GET", "/admin/v1/reports/reconciliation/verify" + reportQuery, null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(verify.status()).as(verify.toString()).isEqualTo(200);
        Answer replay = admin("POST", "/admin/v1/replay?projection=all", null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(replay.body().path("identical").asBoolean()).as(replay.toString()).isTrue();
        List<String> exportAfter = export(start, beforeErasure);
        assertThat(exportAfter.subList(0, exportAfter.size() - 1))
                .isEqualTo(exportBefore.subList(0, exportBefore.size() - 1));
        assertThat(JSON.readTree(exportAfter.get(exportAfter.size() - 1)).path("head").path("hash"))
                .isEqualTo(JSON.readTree(exportBefore.get(exportBefore.size() - 1)).path("head").path("hash"));

        // the same customer again: a new session is not erased, and the erasure can be asked again
        assertThat(erase(partner.project(), "customer-never-seen-" + tag).status()).isEqualTo(202);
    }

    /**
     * Events stored in clear by an earlier version are encrypted once by a background task, and only then can the
     * customer be erased (the index of customers is made as they are encrypted).
     */
    @Test
    void eventsStoredBeforeEncryptionAreEncryptedOnceThenErasable() throws Exception {
        TestPartner partner = registeredPartner("erasure-old");
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String reference = "old-customer-" + tag;
        String email = "old." + tag + "@example.org";
        ObjectNode body = cardPayment("4242424242424242", "123");
        customer(body, reference, email);
        body.put("metadata", "old order " + tag);
        String session = initiatedAndConfirmed(partner, "/api/v1/session/init/payment", body);
        WEBHOOKS.await(session, "payment_finished", WEBHOOK_WAIT);

        // as an earlier version stored them: in clear, no key, not indexed
        List<Map<String, Object>> rows = jdbc.queryForList("select global_index, payload, payload_type, payload_revision "
                + "from domain_event_entry where aggregate_identifier = ? order by sequence_number", session);
        for (Map<String, Object> row : rows) {
            SimpleSerializedObject<byte[]> stored = new SimpleSerializedObject<>((byte[]) row.get("payload"),
                    byte[].class, new SimpleSerializedType((String) row.get("payload_type"),
                    (String) row.get("payload_revision")));
            Object event = eventSerializer.deserialize(stored);
            jdbc.update("update domain_event_entry set payload = ? where global_index = ?",
                    serializer.serialize(event, byte[].class).getData(), row.get("global_index"));
        }
        sessionKeys.erase(List.of(SessionId.of(session))); // also forgets what this node cached of them
        jdbc.update("delete from pii_subject_session where session_id = ?", session);
        jdbc.update("delete from pii_session_key where session_id = ?", session);
        long first = ((Number) rows.get(0).get("global_index")).longValue();
        jdbc.update("update pii_stored_events_encryption set last_global_index = ?, up_to = "
                + "(select max(global_index) from domain_event_entry), finished_at = null", first - 1);
        assertThat(payloads(session)).anySatisfy(payload -> assertThat(payload).contains(email));

        Answer progress = admin("GET", "/admin/v1/erasures/stored-events", null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(progress.body().path("stored_events").path("done").asBoolean()).as(progress.toString()).isFalse();
        Answer refused = erase(partner.project(), reference);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.errorDescription()).contains("still being encrypted");

        assertThat(encryption.run()).as("the payment started event, with the customer").isPositive();
        progress = admin("GET", "/admin/v1/erasures/stored-events", null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(progress.body().path("stored_events").path("done").asBoolean()).as(progress.toString()).isTrue();
        assertThat(payloads(session)).allSatisfy(payload -> assertThat(payload).doesNotContain(email, reference))
                .anySatisfy(payload -> assertThat(payload).contains("pii:v1:"));
        assertThat(status(partner, session)).contains(email, reference);
        assertThat(encryption.run()).as("once").isZero();

        Answer accepted = erase(partner.project(), reference);
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
        assertThat(accepted.body().path("erasure").path("session_ids")).extracting(JsonNode::asText)
                .containsExactly(session);
        awaitCompleted(accepted.body().path("erasure").path("erasure_id").asText());
        assertThat(status(partner, session)).contains("[erased]").doesNotContain(email, reference);
        assertThat(StoredText.placesHolding(jdbc, List.of(email, reference))).isEmpty();
    }

    /**
     * A QR application payment, whose webhooks land in the sandbox inbox: after the erasure neither the sandbox rail's
     * record of the order (the payer's phone, the return URL) nor the inbox keeps anything of the customer.
     */
    @Test
    void theSandboxKeepsNothingOfAnErasedCustomer() throws InterruptedException {
        TestPartner partner = registeredPartner("erasure-inbox", project -> baseUrl() + "/sandbox/webhooks/" + project);
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String phone = "7926" + (1_000_000 + new java.util.Random().nextInt(9_000_000));
        String returnUrl = "bankapp://shop/return?who=" + tag;
        String reference = "qr-customer-" + tag;
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_details").put("type", "internet_banking").putObject("internet_banking")
                .put("type", "qr_app_pay").putObject("qr_app_pay").put("phone", phone).put("channel", "mobile_web");
        body.putObject("amount_details").put("amount", 5000).put("currency", "rub");
        body.putObject("payment_options").put("return_url", returnUrl);
        body.putObject("customer").put("reference", reference);
        body.put("metadata", "qr " + tag);
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String session = init.session().path("id").asText();
        inboxWebhook(partner.project(), session, "ready_to_confirm");
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(session)).status()).isEqualTo(200);
        JsonNode action = inboxWebhook(partner.project(), session, "action_required");
        payerAnswers(action.path("session").path("acquiring_payments").path(0).path("customer_interaction")
                .path("redirect").path("url").asText(), true);
        inboxWebhook(partner.project(), session, "payment_finished");
        assertThat(inboxText(partner.project())).contains(phone);
        assertThat(StoredText.placesHolding(jdbc, List.of(phone, returnUrl))).contains("sandbox_interaction.rail_order");

        Answer accepted = erase(partner.project(), reference);
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
        awaitCompleted(accepted.body().path("erasure").path("erasure_id").asText());

        assertThat(StoredText.placesHolding(jdbc, List.of(phone, returnUrl, reference))).isEmpty();
        assertThat(jdbc.queryForObject("select count(*) from sandbox_payer_push where interaction_id in "
                + "(select id from sandbox_interaction where session_id = ?)", Long.class, session)).isZero();
        assertThat(inboxText(partner.project())).doesNotContain(phone, session);
    }

    /** The body of the session's webhook of {@code type} in the sandbox inbox, once it has arrived. */
    private JsonNode inboxWebhook(String project, String session, String type) {
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (true) {
            for (JsonNode webhook : inbox(project).path("webhooks")) {
                JsonNode body = webhook.path("body");
                if (body.path("type").asText().equals(type) && body.path("session").path("id").asText().equals(session)) {
                    return body;
                }
            }
            assertThat(System.currentTimeMillis()).as(type + " in the inbox").isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private JsonNode inbox(String project) {
        return TestPartner.exchange(java.net.http.HttpRequest.newBuilder(java.net.URI.create(baseUrl()
                + "/sandbox/webhooks/" + project)).GET().build()).body();
    }

    private String inboxText(String project) {
        return inbox(project).toString();
    }

    @Test
    void refusals() {
        TestPartner partner = registeredPartner("erasure-refusals");
        assertThat(admin("POST", "/admin/v1/erasures", "{\"project\":\"" + partner.project()
                + "\",\"customer_reference\":\"x\"}", "not-the-admin-token").status()).isEqualTo(401);
        for (String body : List.of("{}", "{\"project\":\"" + partner.project() + "\"}",
                "{\"project\":\"" + partner.project() + "\",\"customer_reference\":\"\"}",
                "{\"project\":\"" + partner.project() + "\",\"customer_reference\":42}",
                "{\"project\":\"no-such-partner-" + UUID.randomUUID() + "\",\"customer_reference\":\"x\"}",
                "{\"project\":\"" + partner.project() + "\",\"customer_reference\":\"" + "x".repeat(257) + "\"}",
                "[1]", "not json")) {
            Answer answer = admin("POST", "/admin/v1/erasures", body, TestServiceProperties.ADMIN_TOKEN);
            assertThat(answer.status()).as(body + " " + answer).isEqualTo(400);
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
        }
        assertThat(admin("GET", "/admin/v1/erasures/er_unknown", null, TestServiceProperties.ADMIN_TOKEN).status())
                .isEqualTo(404);
    }

    private List<String> payloads(String session) {
        return jdbc.queryForList("select convert_from(payload, 'UTF8') from domain_event_entry where aggregate_identifier = ?",
                String.class, session);
    }

    private static void customer(ObjectNode body, String reference, String email) {
        ObjectNode customer = body.putObject("customer").put("reference", reference);
        customer.putArray("contacts").addObject().put("email", email);
    }

    private Answer erase(String project, String reference) {
        return admin("POST", "/admin/v1/erasures", "{\"project\":\"" + project + "\",\"customer_reference\":\""
                + reference + "\",\"requested_by\":\"dpo-ticket-" + reference.replaceAll(".*-", "") + "\"}",
                TestServiceProperties.ADMIN_TOKEN);
    }

    private void awaitCompleted(String erasureId) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (true) {
            Answer shown = admin("GET", "/admin/v1/erasures/" + erasureId, null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(shown.status()).as(shown.toString()).isEqualTo(200);
            if (shown.body().path("erasure").path("state").asText().equals("completed")) {
                return;
            }
            assertThat(System.currentTimeMillis()).as("the erasure completes").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private String status(TestPartner partner, String sessionId) {
        Answer status = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(status.status()).as(status.toString()).isEqualTo(200);
        return status.text();
    }

    private String history(String sessionId) {
        Answer history = admin("GET", "/admin/v1/sessions/" + sessionId + "/events", null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(history.status()).as(history.toString()).isEqualTo(200);
        return history.text();
    }

    private JsonNode awaitReport(String query, int operations) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (true) {
            Answer report = admin("GET", "/admin/v1/reports/reconciliation" + query, null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(report.status()).as(report.toString()).isEqualTo(200);
            int counted = 0;
            for (JsonNode row : report.body().path("report").path("rows")) {
                counted += row.path("count").asInt();
            }
            if (counted >= operations) {
                // the store's position the report was made at moves on with the erasure's events
                return ((ObjectNode) report.body().path("report")).without("position");
            }
            assertThat(System.currentTimeMillis()).as("the operations reach the report").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private List<String> export(Instant from, Instant to) {
        Answer answer = admin("GET", "/admin/v1/audit/export?from=" + from + "&to=" + to, null,
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.text().lines().filter(line -> !line.isBlank()).toList();
    }

    private static String withoutUpdatedAt(String session) {
        return session.replaceAll("\"updated_at\":\"[^\"]*\"", "\"updated_at\":\"\"");
    }
}
