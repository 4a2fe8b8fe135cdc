package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stops the whole application in the middle of a payment and starts it again on the same data
 * directory: nothing accepted is lost and no webhook goes missing.
 */
class RestartMidFlowTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Path dataDirectory = TestServiceProperties.newDataDirectory("payments-restart");
    private volatile String servicePublicKey;
    private final WebhookReceiver webhooks = new WebhookReceiver(() -> servicePublicKey);
    private OwnService application;
    private final Map<String, Object> extraProperties = new LinkedHashMap<>();

    @AfterEach
    void stop() {
        if (application != null) {
            application.close();
        }
        webhooks.close();
    }

    @Test
    void aPaymentStoppedAfterReadyToConfirmCompletesAfterARestart() {
        TestPartner partner = startAndRegisterPartner();
        Answer init = partner.post("/api/v1/session/init/payment",
                EndToEndTestBase.cardPayment("4242424242424242", "123"));
        String sessionId = init.session().path("id").asText();
        Received ready = webhooks.await(sessionId, "ready_to_confirm", WAIT);

        restart(partner);

        Answer status = partner.post("/api/v1/session/status", EndToEndTestBase.sessionRef(sessionId));
        assertThat(status.session().path("next_action").asText()).isEqualTo("confirm");
        Answer confirm = partner.post("/api/v1/session/confirm", EndToEndTestBase.sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        Received finished = webhooks.await(sessionId, "payment_finished", WAIT);

        assertThat(finished.signatureValid()).as("signed with the same service key after the restart").isTrue();
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        assertThat(webhooks.forSession(sessionId)).extracting(Received::type)
                .containsExactly("ready_to_confirm", "payment_finished");
        assertThat(ready.webhookId()).isNotEqualTo(finished.webhookId());
    }

    @Test
    void aPaymentAcceptedJustBeforeAStopIsCarriedOnAfterTheRestart() {
        TestPartner partner = startAndRegisterPartner();
        Answer init = partner.post("/api/v2/session/init/payment",
                EndToEndTestBase.cardPayment("4000000000000002", "123"));
        assertThat(init.status()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();

        restart(partner);

        webhooks.await(sessionId, "ready_to_confirm", WAIT);
        partner.post("/api/v2/session/confirm", EndToEndTestBase.sessionRef(sessionId));
        Received finished = webhooks.await(sessionId, "payment_finished", WAIT);
        assertThat(finished.session().path("payment_list").path(0).path("error").path("code").asText())
                .isEqualTo("declined_by_issuer_bank");
        assertThat(webhooks.forSession(sessionId)).allSatisfy(webhook ->
                assertThat(webhook.signatureValid()).isTrue());
        assertThat(webhooks.forSession(sessionId).stream().filter(w -> w.type().equals("ready_to_confirm"))
                .map(Received::webhookId).distinct()).hasSize(1);
    }

    @Test
    void aDeadlineSetBeforeARestartFiresAfterItOnce() throws Exception {
        extraProperties.put("payments.limits.confirm", "3s");
        TestPartner partner = startAndRegisterPartner();
        Answer init = partner.post("/api/v1/session/init/payment",
                EndToEndTestBase.cardPayment("4242424242424242", "123"));
        String sessionId = init.session().path("id").asText();
        webhooks.await(sessionId, "ready_to_confirm", WAIT);
        application.close();
        application = null;
        Thread.sleep(3_500); // the confirmation deadline falls due while the service is down

        start();
        partner.at(baseUrl());

        Received finished = webhooks.await(sessionId, "payment_finished", WAIT);
        assertThat(finished.session().path("error").path("code").asText()).isEqualTo("confirm_timeout");
        JdbcTemplate jdbc = application.bean(JdbcTemplate.class);
        Instant waitUntil = Instant.now().plusSeconds(2);
        while (Instant.now().isBefore(waitUntil)) {
            Thread.sleep(100); // give a second firing, if there were one, the chance to happen
        }
        assertThat(jdbc.queryForObject("select count(*) from domain_event_entry where aggregate_identifier = ?"
                + " and payload_type like '%SessionCancelledEvent'", Integer.class, sessionId)).isEqualTo(1);
        assertThat(webhooks.forSession(sessionId)).extracting(Received::type)
                .containsExactly("ready_to_confirm", "payment_finished");
        assertThat(jdbc.queryForObject("select count(*) from scheduled_tasks where task_name = 'AxonDeadline'",
                Integer.class)).as("the deadline ran and is gone").isZero();
    }

    private TestPartner startAndRegisterPartner() {
        start();
        return application.register("restart-shop", webhooks.url("restart-shop"));
    }

    private void restart(TestPartner partner) {
        application.close();
        start();
        partner.at(baseUrl());
    }

    private void start() {
        // as command-line arguments: they must win over application.yml's environment placeholders
        Map<String, Object> properties = new LinkedHashMap<>(TestServiceProperties.forDataDirectory(dataDirectory));
        properties.putAll(extraProperties);
        application = OwnService.start(properties);
        String key = application.servicePublicKey();
        if (servicePublicKey != null) {
            assertThat(key).as("the service key survives a restart").isEqualTo(servicePublicKey);
        }
        servicePublicKey = key;
    }

    private String baseUrl() {
        return application.baseUrl();
    }
}
