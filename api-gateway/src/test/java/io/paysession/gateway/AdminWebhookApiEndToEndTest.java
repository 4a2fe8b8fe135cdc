package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The operator's webhook API over HTTP: who may call it, what it refuses, and redelivery of what was sent. */
class AdminWebhookApiEndToEndTest extends EndToEndTestBase {

    private static final String TOKEN = TestServiceProperties.ADMIN_TOKEN;

    @ParameterizedTest
    @CsvSource({
            "GET, /admin/v1/webhooks",
            "GET, /admin/v1/webhooks/6f1d7a4e-3b1c-3c55-9a55-0c1a7f6b2f10",
            "POST, /admin/v1/webhooks/6f1d7a4e-3b1c-3c55-9a55-0c1a7f6b2f10/redeliver",
            "POST, /admin/v1/webhooks/redeliver-parked?project=shop",
            "POST, /admin/v1/sessions/ps_1/webhooks/resend",
            "GET, /actuator/metrics",
            "GET, /actuator/prometheus",
            "GET, /actuator"})
    void everyCallNeedsTheAdminToken(String method, String path) {
        for (String token : new String[]{null, "not-the-admin-token-at-all"}) {
            Answer refused = admin(method, path, null, token);

            assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
            assertThat(refused.body().path("status").asText()).isEqualTo("error");
            assertThat(refused.errorCode()).isEqualTo("authentication_error");
        }
    }

    @Test
    void healthIsOpenToProbesWithoutAToken() {
        Answer health = admin("GET", "/actuator/health", null, null);

        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().path("status").asText()).isEqualTo("UP");
    }

    @ParameterizedTest
    @CsvSource({
            "GET, /admin/v1/webhooks?limit=0, limit",
            "GET, /admin/v1/webhooks?limit=501, limit",
            "GET, /admin/v1/webhooks?limit=ten, limit",
            "GET, /admin/v1/webhooks?limit=-1, limit",
            "GET, /admin/v1/webhooks?state=lost, state",
            "GET, /admin/v1/webhooks?session_id=42, session_id",
            "GET, /admin/v1/webhooks?session_id=, session_id",
            "GET, /admin/v1/webhooks?project=-bad, project",
            "GET, /admin/v1/webhooks/42, UUID",
            "POST, /admin/v1/webhooks/not-a-uuid/redeliver, UUID",
            "POST, /admin/v1/webhooks/redeliver-parked, project",
            "POST, /admin/v1/webhooks/redeliver-parked?project=%20, project",
            "POST, /admin/v1/sessions/session-1/webhooks/resend, session_id"})
    void badParametersAreInvalidRequestsNamingTheParameter(String method, String path, String named) {
        Answer refused = admin(method, path, null, TOKEN);

        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.errorCode()).isEqualTo("invalid_request");
        assertThat(refused.errorDescription()).contains(named);
    }

    @ParameterizedTest
    @CsvSource({
            "GET, /admin/v1/webhooks/6f1d7a4e-3b1c-3c55-9a55-0c1a7f6b2f10",
            "POST, /admin/v1/webhooks/6f1d7a4e-3b1c-3c55-9a55-0c1a7f6b2f10/redeliver",
            "POST, /admin/v1/webhooks/redeliver-parked?project=nobody-registered-this",
            "GET, /admin/v1/webhooks?project=nobody-registered-this",
            "GET, /admin/v1/webhooks?session_id=ps_987654321987",
            "POST, /admin/v1/sessions/ps_987654321987/webhooks/resend"})
    void unknownWebhooksPartnersAndSessionsAreNotFound(String method, String path) {
        Answer refused = admin(method, path, null, TOKEN);

        assertThat(refused.status()).as(refused.toString()).isEqualTo(404);
        assertThat(refused.errorCode()).isEqualTo("invalid_request");
    }

    @Test
    void aDeliveredWebhookRedeliveredByTheAdminArrivesAgainWithItsIdAndTheHistorySaysWhoAsked() {
        TestPartner partner = registeredPartner("redeliver");
        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");
        Received first = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        await().atMost(WEBHOOK_WAIT).until(() -> webhook(first.webhookId()).path("state").asText().equals("delivered"));

        Answer redelivered = admin("POST", "/admin/v1/webhooks/" + first.webhookId() + "/redeliver", null, TOKEN);

        assertThat(redelivered.status()).as(redelivered.toString()).isEqualTo(200);
        assertThat(redelivered.body().path("status").asText()).isEqualTo("ok");
        JsonNode pending = redelivered.body().path("webhook");
        assertThat(pending.path("state").asText()).isEqualTo("pending");
        assertThat(pending.path("id").asText()).isEqualTo(first.webhookId());
        assertThat(pending.path("redeliveries")).singleElement().satisfies(redelivery -> {
            assertThat(redelivery.path("requested_by").asText()).isEqualTo("admin");
            assertThat(redelivery.path("operation").asText()).isEqualTo("redeliver");
            assertThat(redelivery.path("previous_state").asText()).isEqualTo("delivered");
        });
        await().atMost(WEBHOOK_WAIT).until(() -> WEBHOOKS.forSession(sessionId).size() == 2);
        Received again = WEBHOOKS.forSession(sessionId).get(1);
        assertThat(again.webhookId()).isEqualTo(first.webhookId());
        assertThat(again.rawBody()).as("the same notification, byte for byte").isEqualTo(first.rawBody());
        assertThat(again.signatureValid()).isTrue();
        await().atMost(WEBHOOK_WAIT).untilAsserted(() -> assertThat(webhook(first.webhookId()).path("attempts"))
                .extracting(attempt -> attempt.path("redelivery").asInt()).containsExactly(0, 1));
    }

    @Test
    void aSessionsWebhooksAreResentFromItsEventsInEventOrderWithTheirIds() {
        TestPartner partner = registeredPartner("resend");
        String sessionId = ServiceClient.readyToConfirm(partner, "4242424242424242");
        ServiceClient.confirm(partner, sessionId);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        List<Received> sent = WEBHOOKS.forSession(sessionId);
        await().atMost(WEBHOOK_WAIT).until(() -> list("session_id=" + sessionId + "&state=delivered").size() == 2);

        Answer resent = admin("POST", "/admin/v1/sessions/" + sessionId + "/webhooks/resend", null, TOKEN);

        assertThat(resent.status()).as(resent.toString()).isEqualTo(200);
        assertThat(resent.body().path("session_id").asText()).isEqualTo(sessionId);
        assertThat(resent.body().path("webhooks")).extracting(webhook -> webhook.path("type").asText())
                .containsExactly("ready_to_confirm", "payment_finished");
        assertThat(resent.body().path("webhooks")).allSatisfy(webhook ->
                assertThat(webhook.path("redeliveries").get(0).path("operation").asText()).isEqualTo("resend_session"));
        await().atMost(WEBHOOK_WAIT).until(() -> WEBHOOKS.forSession(sessionId).size() == 4);
        List<Received> all = WEBHOOKS.forSession(sessionId);
        assertThat(all.subList(2, 4)).extracting(Received::type).containsExactly("ready_to_confirm", "payment_finished");
        assertThat(all.subList(2, 4)).extracting(Received::webhookId)
                .containsExactly(sent.get(0).webhookId(), sent.get(1).webhookId());
        assertThat(all).allSatisfy(webhook -> assertThat(webhook.signatureValid()).isTrue());
    }

    @Test
    void listsShowAPartnersWebhooksNewestFirstWithinTheLimitAndByState() {
        TestPartner partner = registeredPartner("listing");
        String firstSession = ServiceClient.readyToConfirm(partner, "4242424242424242");
        String secondSession = ServiceClient.readyToConfirm(partner, "4242424242424242");
        await().atMost(WEBHOOK_WAIT).until(() -> list("project=" + partner.project() + "&state=DELIVERED").size() == 2);

        Answer limited = admin("GET", "/admin/v1/webhooks?project=" + partner.project() + "&limit=1", null, TOKEN);

        assertThat(limited.status()).isEqualTo(200);
        assertThat(limited.body().path("has_more").asBoolean()).isTrue();
        assertThat(limited.body().path("webhooks")).singleElement().satisfies(webhook -> {
            assertThat(webhook.path("session_id").asText()).isEqualTo(secondSession);
            assertThat(webhook.path("project").asText()).isEqualTo(partner.project());
            assertThat(webhook.path("type").asText()).isEqualTo("ready_to_confirm");
            assertThat(webhook.path("attempt_count").asInt()).isEqualTo(1);
            assertThat(webhook.has("delivered_at")).isTrue();
            assertThat(webhook.has("next_attempt_at")).as("only pending ones have one").isFalse();
            assertThat(webhook.has("body")).as("bodies only in the single view").isFalse();
        });
        assertThat(list("project=" + partner.project() + "&state=parked")).isEmpty();
        assertThat(list("session_id=" + firstSession)).extracting(webhook -> webhook.path("session_id").asText())
                .containsExactly(firstSession);
        JsonNode single = webhook(list("session_id=" + firstSession).get(0).path("id").asText());
        assertThat(single.path("body").path("type").asText()).isEqualTo("ready_to_confirm");
        assertThat(single.path("body").path("session").path("id").asText()).isEqualTo(firstSession);
        assertThat(single.toString()).doesNotContain("null");
    }

    private JsonNode webhook(String id) {
        Answer answer = admin("GET", "/admin/v1/webhooks/" + id, null, TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body().path("webhook");
    }

    private List<JsonNode> list(String query) {
        Answer answer = admin("GET", "/admin/v1/webhooks?" + query, null, TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<JsonNode> webhooks = new ArrayList<>();
        answer.body().path("webhooks").forEach(webhooks::add);
        return webhooks;
    }
}
