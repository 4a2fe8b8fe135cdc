package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.session.SessionLimits;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.Race;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A payment takes at most 100 refunds and a refund's metadata at most 2 KiB, so that the session every later view,
 * status answer and {@code payment_refunded} repeats stays bounded: with the most a partner can put into a session
 * (a create and a start of 64 KiB each, 100 refunds of maximal metadata), a {@code payment_refunded} body stays under
 * {@link SessionLimits#MAX_WEBHOOK_BODY_BYTES} (512 KiB). The last refunds race for the last places.
 */
class RefundLimitsEndToEndTest extends EndToEndTestBase {

    private static final int LIMIT = SessionLimits.MAX_REFUNDS_PER_PAYMENT;
    /** A JSON string of exactly the largest metadata accepted: 2 KiB with its quotes. */
    private static final String MAX_METADATA = "m".repeat(SessionLimits.MAX_REFUND_METADATA_BYTES - 2);

    @Test
    void aPaymentTakesAHundredRefundsAndItsLargestPaymentRefundedStaysUnderTheWebhookBound() throws Exception {
        TestPartner partner = registeredPartner("refund-cap");
        String sessionId = largestPaidSession(partner);

        Answer tooMuchMetadata = partner.post("/api/v1/session/refund", refund(sessionId, MAX_METADATA + "m"));
        assertThat(tooMuchMetadata.status()).isEqualTo(400);
        assertThat(tooMuchMetadata.errorCode()).isEqualTo("invalid_request");
        assertThat(tooMuchMetadata.errorDescription()).contains("metadata").contains("2048");
        // 49 bytes as sent, 2,121 as the session's view (jsonb) stores them: numbers count written out in full
        String shortNumbers = "{\"session_id\":\"" + sessionId + "\",\"amount_details\":{\"amount\":1,\"currency\":\"RUB\"},"
                + "\"metadata\":{\"n\":[1e300,1e300,1e300,1e300,1e300,1e300,1e300]}}";
        Answer expanding = partner.post("/api/v1/session/refund", shortNumbers);
        assertThat(expanding.status()).as(expanding.toString()).isEqualTo(400);
        assertThat(expanding.errorDescription()).contains("metadata");

        for (int i = 0; i < LIMIT - 2; i++) {
            Answer refunded = partner.post("/api/v1/session/refund", refund(sessionId, MAX_METADATA));
            assertThat(refunded.status()).as("refund %d: %s", i + 1, refunded).isEqualTo(200);
        }
        // eight requests race for the last two places
        List<Callable<Answer>> racing = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            racing.add(() -> partner.post("/api/v1/session/refund", refund(sessionId, MAX_METADATA)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(racing.size());
        List<Answer> raced;
        try {
            raced = Race.run(pool, racing);
        } finally {
            pool.shutdownNow();
        }
        assertThat(raced).filteredOn(answer -> answer.status() == 200).hasSize(2);
        assertThat(raced).filteredOn(answer -> answer.status() != 200)
                .hasSize(6)
                .allSatisfy(answer -> {
                    assertThat(answer.status()).isEqualTo(400);
                    assertThat(answer.errorCode()).isEqualTo("refund_limit_exceeded");
                });
        Answer oneMore = partner.post("/api/v1/session/refund", refund(sessionId, null));
        assertThat(oneMore.status()).isEqualTo(400);
        assertThat(oneMore.errorCode()).isEqualTo("refund_limit_exceeded");
        assertThat(oneMore.errorDescription()).contains("100");

        Answer status = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(status.session().path("acquiring_payments").path(0).path("refunds")).hasSize(LIMIT);

        Received last = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> lastRefunded(sessionId), Optional::isPresent).orElseThrow();
        int bytes = last.rawBody().getBytes(StandardCharsets.UTF_8).length;
        System.out.println("largest payment_refunded body: " + bytes + " bytes");
        assertThat(bytes).isGreaterThan(LIMIT * SessionLimits.MAX_REFUND_METADATA_BYTES)
                .isLessThan(SessionLimits.MAX_WEBHOOK_BODY_BYTES);
    }

    /**
     * A session as large as two requests of 64 KiB make it: {@code session/create} with 63,000 characters of metadata,
     * {@code session/start/payment} with 63,000 of {@code payment_options.description}; paid.
     */
    private String largestPaidSession(TestPartner partner) {
        ObjectNode create = JsonNodeFactory.instance.objectNode().put("metadata", "d".repeat(63_000));
        Answer created = partner.post("/api/v1/session/create", create);
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        String sessionId = created.session().path("id").asText();

        ObjectNode start = cardPayment("4242424242424242", "123");
        start.remove("metadata");
        start.put("session_id", sessionId);
        start.putObject("payment_options").put("description", "o".repeat(63_000));
        assertThat(start.toString().length()).isLessThan(64 * 1024);
        Answer started = partner.post("/api/v1/session/start/payment", start);
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        return sessionId;
    }

    /** The {@code payment_refunded} that shows all 100 refunds finished, once it has arrived. */
    private static Optional<Received> lastRefunded(String sessionId) {
        return WEBHOOKS.forSession(sessionId).stream()
                .filter(webhook -> webhook.type().equals("payment_refunded"))
                .filter(webhook -> {
                    JsonNode refunds = webhook.session().path("acquiring_payments").path(0).path("refunds");
                    if (refunds.size() != LIMIT) {
                        return false;
                    }
                    for (JsonNode refund : refunds) {
                        if (refund.path("status").asText().equals("in_progress")) {
                            return false;
                        }
                    }
                    return true;
                })
                .findFirst();
    }

    private static ObjectNode refund(String sessionId, String metadata) {
        ObjectNode body = sessionRef(sessionId);
        body.putObject("amount_details").put("amount", 1).put("currency", "RUB");
        if (metadata != null) {
            body.put("metadata", metadata);
        }
        return body;
    }
}
