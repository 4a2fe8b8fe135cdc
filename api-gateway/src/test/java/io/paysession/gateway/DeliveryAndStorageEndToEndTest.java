package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the running application does with a failing partner endpoint, and how it keeps its data. */
class DeliveryAndStorageEndToEndTest extends EndToEndTestBase {

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aWebhookThePartnerRefusesIsRetriedWithTheSameIdUntilAccepted() {
        TestPartner partner = registeredPartner("flaky");
        WEBHOOKS.failNext(partner.project(), 2);

        Answer init = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"));
        String sessionId = init.session().path("id").asText();
        Received ready = WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);

        assertThat(ready.signatureValid()).isTrue();
        assertThat(WEBHOOKS.refusedIds()).filteredOn(ready.webhookId()::equals).hasSize(2);
        // the service records the attempt after the partner's answer reached it
        await().atMost(WEBHOOK_WAIT).untilAsserted(() -> assertThat(jdbc.queryForList(
                "select http_status from webhook_attempt a join webhook_notification n"
                        + " on n.id = a.notification_id where n.session_id = ? order by a.attempt_number",
                Integer.class, sessionId)).containsExactly(503, 503, 200));
    }

    @Test
    void theEmbeddedDatabaseWritesDurably() {
        assertThat(jdbc.queryForObject("show fsync", String.class)).isEqualTo("on");
        assertThat(jdbc.queryForObject("show synchronous_commit", String.class)).isEqualTo("on");
        assertThat(jdbc.queryForObject("show data_directory", String.class))
                .startsWith(DATA_DIRECTORY.resolve("postgres").toString());
    }
}
