package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Session status {@code error} and refund status {@code error} over HTTP (docs/decisions.md, "When a status is
 * error"): the sandbox card {@code 4000000000000127}, whose acquirer keeps the outcome unknown for
 * {@code payments.sandbox.long-unknown}, is shown failed with the session in {@code error} once the first series of
 * queries is over ({@code payments.limits.outcome-queries-before-error}, 2 here), signed {@code payment_finished}
 * telling it; the rail is still asked, and its later answer makes the payment succeed and sends
 * {@code payment_finished} again. Its refunds stay unknown as long: {@code payment_refunded} with the refund in
 * {@code error}, then again with it {@code accepted}; the session stays {@code accepted} throughout.
 */
class OutcomeErrorEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String STAYS_UNKNOWN = "4000000000000127";

    private static volatile String servicePublicKey;
    private static final WebhookReceiver WEBHOOKS = new WebhookReceiver(() -> servicePublicKey);
    private static OwnService application;
    private static TestPartner partner;

    @BeforeAll
    static void start() {
        Map<String, Object> properties = new LinkedHashMap<>(TestServiceProperties.forDataDirectory(
                TestServiceProperties.newDataDirectory("payments-outcome-error")));
        properties.put("payments.limits.first-outcome-query", "500ms");
        properties.put("payments.limits.max-outcome-query-interval", "1s");
        properties.put("payments.limits.outcome-queries-before-error", "2");
        properties.put("payments.sandbox.long-unknown", "5s");
        application = OwnService.start(properties);
        servicePublicKey = application.servicePublicKey();
        partner = application.register("error-shop", WEBHOOKS.url("error-shop"));
    }

    @AfterAll
    static void stop() {
        if (application != null) {
            application.close();
        }
        WEBHOOKS.close();
    }

    @Test
    void aPaymentWhoseOutcomeStaysUnknownIsShownInErrorThenSucceedsWhenTheRailAnswersInBothVersions() {
        for (String version : List.of("v1", "v2")) {
            String payments = version.equals("v1") ? "acquiring_payments" : "payment_list";
            Answer init = partner.post("/api/" + version + "/session/init/payment",
                    EndToEndTestBase.cardPayment(STAYS_UNKNOWN, "123").put("metadata", "order in " + version));
            assertThat(init.status()).as(init.toString()).isEqualTo(200);
            String sessionId = init.session().path("id").asText();
            WEBHOOKS.await(sessionId, "ready_to_confirm", WAIT);
            assertThat(partner.post("/api/" + version + "/session/confirm", EndToEndTestBase.sessionRef(sessionId))
                    .status()).isEqualTo(200);

            List<Received> finished = awaitWebhooks(sessionId, "payment_finished", 2);
            JsonNode inError = finished.get(0).session();
            assertThat(finished).allSatisfy(webhook -> assertThat(webhook.signatureValid()).isTrue());
            assertThat(inError.path("status").asText()).as(inError.toString()).isEqualTo("error");
            assertThat(inError.path("error").path("code").asText()).isEqualTo("provider_timeout");
            JsonNode failed = inError.path(payments).path(0);
            assertThat(failed.path("status").asText()).isEqualTo("failed");
            assertThat(failed.path("error").path("code").asText()).isEqualTo("provider_timeout");
            assertThat(failed.path("error").path("description").asText()).contains("do not repeat it");

            JsonNode paid = finished.get(1).session();
            assertThat(paid.path("status").asText()).as(paid.toString()).isEqualTo("accepted");
            assertThat(paid.has("error")).isFalse();
            assertThat(paid.path(payments).path(0).path("status").asText()).isEqualTo("succeeded");
            assertThat(paid.path(payments).path(0).has("error")).isFalse();
            assertThat(finished.get(0).webhookId()).isNotEqualTo(finished.get(1).webhookId());
            Answer status = partner.post("/api/" + version + "/session/status", EndToEndTestBase.sessionRef(sessionId));
            assertThat(status.session().path("status").asText()).isEqualTo("accepted");
        }
    }

    @Test
    void aRefundWhoseOutcomeStaysUnknownIsInErrorThenAcceptedWhileTheSessionStaysAccepted() {
        Answer init = partner.post("/api/v1/session/init/payment", EndToEndTestBase.cardPayment(STAYS_UNKNOWN, "123")
                .put("metadata", "order to refund"));
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WAIT);
        partner.post("/api/v1/session/confirm", EndToEndTestBase.sessionRef(sessionId));
        awaitWebhooks(sessionId, "payment_finished", 2);

        ObjectNode refund = EndToEndTestBase.sessionRef(sessionId);
        refund.putObject("amount_details").put("amount", 4_000).put("currency", "rub");
        Answer requested = partner.post("/api/v1/session/refund", refund);
        assertThat(requested.status()).as(requested.toString()).isEqualTo(200);

        List<Received> refunded = awaitWebhooks(sessionId, "payment_refunded", 2);
        JsonNode inError = refunded.get(0).session();
        assertThat(inError.path("status").asText()).isEqualTo("accepted");
        assertThat(inError.path("acquiring_payments").path(0).path("status").asText()).isEqualTo("succeeded");
        JsonNode refundInError = inError.path("acquiring_payments").path(0).path("refunds").path(0);
        assertThat(refundInError.path("status").asText()).as(refundInError.toString()).isEqualTo("error");
        assertThat(refundInError.path("error").path("code").asText()).isEqualTo("provider_timeout");
        assertThat(refundInError.has("finished_at")).isFalse();

        ObjectNode tooMuch = EndToEndTestBase.sessionRef(sessionId);
        tooMuch.putObject("amount_details").put("amount", 6_001).put("currency", "rub");
        Answer refused = partner.post("/api/v1/session/refund", tooMuch);
        assertThat(refused.errorCode()).as("a refund in error may still be paid: it counts")
                .isEqualTo("refund_amount_too_large");

        JsonNode accepted = refunded.get(1).session().path("acquiring_payments").path(0).path("refunds").path(0);
        assertThat(accepted.path("status").asText()).isEqualTo("accepted");
        assertThat(accepted.has("error")).isFalse();
        assertThat(accepted.path("finished_at").asText()).endsWith("Z");
        assertThat(refunded.get(1).session().path("status").asText()).isEqualTo("accepted");
    }

    /** The first {@code count} webhooks of {@code type} for the session, in the order they arrived. */
    private static List<Received> awaitWebhooks(String sessionId, String type, int count) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> WEBHOOKS.forSession(sessionId).stream()
                .filter(webhook -> webhook.type().equals(type)).map(Received::webhookId).distinct().count() >= count);
        List<Received> all = WEBHOOKS.forSession(sessionId).stream().filter(webhook -> webhook.type().equals(type))
                .toList();
        List<Received> distinct = new java.util.ArrayList<>();
        for (Received webhook : all) {
            if (distinct.stream().noneMatch(seen -> seen.webhookId().equals(webhook.webhookId()))) {
                distinct.add(webhook);
            }
        }
        return distinct.subList(0, count);
    }

    private static String baseUrl() {
        return application.baseUrl();
    }
}
