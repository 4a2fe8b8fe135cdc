package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 15: the embedded PostgreSQL's postmaster is killed (SIGKILL) under a running service. The service
 * starts it again on the same data directory and port, and serves again within seconds, with every session
 * it had (PostgreSQL's crash recovery, fsync on), rather than waiting for ever for a database that is gone.
 */
class EmbeddedPostgresKilledTest {

    private final Path dataDirectory = TestServiceProperties.newDataDirectory("payments-pgkill");
    private final ServiceProcess service = new ServiceProcess(dataDirectory, Map.of());

    @AfterEach
    void stop() {
        service.close();
    }

    @Test
    void aKilledPostmasterIsStartedAgainAndTheServiceServesAgainWithItsData() throws Exception {
        service.start();
        ServiceClient client = new ServiceClient(service.baseUrl());
        TestPartner partner = client.register(new TestPartner("pgkill-shop"),
                WebhookReceiver.url(WebhookReceiver.freePort(), "pgkill-shop"));
        String before = ServiceClient.readyToConfirm(partner, "4242424242424242");

        ProcessHandle postmaster = service.postgres().orElseThrow();
        postmaster.destroyForcibly();
        postmaster.onExit().get(10, TimeUnit.SECONDS);

        // serves again: the session from before the kill is there, and can be paid
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            Answer status = partner.post("/api/v1/session/status", ServiceClient.sessionRef(before));
            return status.status() == 200 && "confirm".equals(status.session().path("next_action").asText());
        });
        ServiceClient.confirm(partner, before);
        await().atMost(Duration.ofSeconds(30)).until(() -> partner.post("/api/v1/session/status",
                ServiceClient.sessionRef(before)).session().path("status").asText().equals("accepted"));
        String after = ServiceClient.readyToConfirm(partner, "5555555555554444");
        assertThat(after).isNotEqualTo(before);

        ProcessHandle restarted = service.postgres().orElseThrow();
        assertThat(restarted.pid()).isNotEqualTo(postmaster.pid());
        assertThat(service.output(1))
                .contains("The embedded PostgreSQL (pid " + postmaster.pid() + ")")
                .contains("runs again on port");
    }
}
