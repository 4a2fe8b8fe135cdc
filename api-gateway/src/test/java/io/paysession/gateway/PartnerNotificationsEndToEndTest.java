package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A partner reads its own webhooks and has one sent again over the signed API ({@code notification/list},
 * {@code notification/resend}): by session, type, state and time, with each delivery attempt, and with the exact
 * body sent and its signature when asked; never another partner's.
 */
class PartnerNotificationsEndToEndTest extends EndToEndTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aPartnerListsItsWebhooksWithTheirAttemptsAndTheExactSignedBodies() throws Exception {
        TestPartner partner = registeredPartner("notes");
        WEBHOOKS.failNext(partner.project(), 1);
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123"));
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

        JsonNode newestFirst = list(partner, JsonNodeFactory.instance.objectNode().put("session_id", sessionId)
                .put("with_body", true));
        assertThat(newestFirst.path("has_more").asBoolean(true)).isFalse();
        List<JsonNode> notes = List.copyOf(JSON.convertValue(newestFirst.path("notifications"),
                JSON.getTypeFactory().constructCollectionType(List.class, JsonNode.class)));
        assertThat(notes).extracting(note -> note.path("type").asText())
                .containsExactly("payment_finished", "ready_to_confirm");
        assertThat(notes).extracting(note -> note.path("id").asText())
                .containsExactly(finished.webhookId(), ready.webhookId());
        assertThat(notes).allSatisfy(note -> {
            assertThat(note.path("state").asText()).isEqualTo("delivered");
            assertThat(note.path("session_id").asText()).isEqualTo(sessionId);
            assertThat(note.path("delivered_at").asText()).endsWith("Z");
            assertThat(note.path("attempts").get(note.path("attempts").size() - 1).path("http_status").asInt())
                    .isEqualTo(200);
            byte[] body = note.path("body").asText().getBytes(StandardCharsets.UTF_8);
            assertThat(RsaSignatures.verify(Pem.readRsaPublicKey(servicePublicKey).orElseThrow(), body,
                    note.path("signature").asText())).as("the listed signature is the service's over the body")
                    .isTrue();
        });
        JsonNode readyNote = notes.get(1);
        assertThat(readyNote.path("body").asText()).as("the exact bytes the partner received")
                .isEqualTo(ready.rawBody());
        assertThat(readyNote.path("attempts")).as("the first attempt failed, the second was delivered").hasSize(2);
        assertThat(readyNote.path("attempts").path(0).path("http_status").asInt()).isEqualTo(503);

        JsonNode oldestFirst = list(partner, JsonNodeFactory.instance.objectNode().put("session_id", sessionId)
                .put("order", "oldest_first").put("limit", 1));
        assertThat(oldestFirst.path("notifications")).hasSize(1);
        assertThat(oldestFirst.path("notifications").path(0).path("type").asText()).isEqualTo("ready_to_confirm");
        assertThat(oldestFirst.path("notifications").path(0).has("body")).isFalse();
        assertThat(oldestFirst.path("has_more").asBoolean()).isTrue();

        JsonNode finishedOnly = list(partner, JsonNodeFactory.instance.objectNode().put("type", "payment_finished"));
        assertThat(finishedOnly.path("notifications")).extracting(note -> note.path("type").asText())
                .containsOnly("payment_finished");
        Instant readyAt = Instant.parse(readyNote.path("created_at").asText());
        JsonNode after = list(partner, JsonNodeFactory.instance.objectNode().put("session_id", sessionId)
                .put("created_from", readyAt.plusNanos(1_000).toString()));
        assertThat(after.path("notifications")).extracting(note -> note.path("type").asText())
                .containsExactly("payment_finished");
        JsonNode before = list(partner, JsonNodeFactory.instance.objectNode().put("session_id", sessionId)
                .put("created_to", readyAt.plusNanos(1_000).toString()));
        assertThat(before.path("notifications")).extracting(note -> note.path("type").asText())
                .containsExactly("ready_to_confirm");
    }

    @Test
    void aPartnerHasOneOfItsWebhooksSentAgainWithTheSameIdAndNeverSeesAnotherPartners() {
        TestPartner partner = registeredPartner("notes-resend");
        TestPartner stranger = registeredPartner("notes-stranger");
        String sessionId = initiatedAndConfirmed(partner, "/api/v2/session/init/payment",
                cardPayment("4242424242424242", "123"));
        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);

        Answer resent = partner.post("/api/v2/notification/resend", "{\"notification_id\":\"" + ready.webhookId() + "\"}");
        assertThat(resent.status()).as(resent.toString()).isEqualTo(200);
        assertThat(resent.body().path("notification").path("id").asText()).isEqualTo(ready.webhookId());
        await().atMost(WEBHOOK_WAIT).pollInterval(Duration.ofMillis(50)).until(() -> WEBHOOKS.forSession(sessionId)
                .stream().filter(webhook -> webhook.webhookId().equals(ready.webhookId())).count() == 2);
        assertThat(WEBHOOKS.forSession(sessionId).stream().filter(webhook -> webhook.webhookId().equals(ready.webhookId())))
                .allSatisfy(webhook -> {
                    assertThat(webhook.signatureValid()).isTrue();
                    assertThat(webhook.rawBody()).isEqualTo(ready.rawBody());
                });

        assertThat(list(stranger, JsonNodeFactory.instance.objectNode().put("session_id", sessionId))
                .path("notifications")).isEmpty();
        Answer notTheirs = stranger.post("/api/v1/notification/resend", "{\"notification_id\":\"" + ready.webhookId() + "\"}");
        assertThat(notTheirs.status()).isEqualTo(400);
        assertThat(notTheirs.errorCode()).isEqualTo("invalid_request");
        assertThat(notTheirs.errorDescription()).isEqualTo(stranger.post("/api/v1/notification/resend",
                "{\"notification_id\":\"00000000-0000-0000-0000-000000000000\"}").errorDescription());
    }

    @Test
    void badFiltersNameTheField() {
        TestPartner partner = registeredPartner("notes-shape");
        assertRefused(partner, "{\"limit\":0}", "limit must be an integer from 1 to 100");
        assertRefused(partner, "{\"limit\":\"5\"}", "limit must be an integer");
        assertRefused(partner, "{\"created_from\":\"yesterday\"}", "created_from must be an ISO 8601 instant");
        assertRefused(partner, "{\"state\":\"sent\"}", "state must be pending, delivered or parked");
        assertRefused(partner, "{\"type\":\"payment_started\"}", "type must be one of");
        assertRefused(partner, "{\"session_id\":\"garbage\"}", "session_id must be a session id");
        assertRefused(partner, "{\"order\":\"random\"}", "order must be newest_first or oldest_first");
        assertRefused(partner, "{\"with_body\":\"yes\"}", "with_body must be true or false");
        Answer noId = partner.post("/api/v1/notification/resend", "{}");
        assertThat(noId.errorDescription()).contains("notification_id is required");
    }

    private static JsonNode list(TestPartner partner, ObjectNode filter) {
        Answer answer = partner.post("/api/v1/notification/list", filter.toString());
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body();
    }

    private static void assertRefused(TestPartner partner, String filter, String description) {
        Answer answer = partner.post("/api/v1/notification/list", filter);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("invalid_request");
        assertThat(answer.errorDescription()).contains(description);
    }
}
