package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The upgrade from the tracking {@code webhook-notifications} processor of earlier versions: a store whose outbox
 * lacks the notifications of events that processor had not handled yet (its tokens are still behind them) gets them
 * at the next start, sent as they would have been, and the old tokens are gone.
 */
class WebhookOutboxUpgradeTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Path dataDirectory = TestServiceProperties.newDataDirectory("payments-upgrade");
    private volatile String servicePublicKey;
    private WebhookReceiver webhooks;
    private ConfigurableApplicationContext application;

    @AfterEach
    void stop() {
        if (application != null) {
            application.close();
        }
        if (webhooks != null) {
            webhooks.close();
        }
    }

    @Test
    void notificationsTheFormerTrackingProcessorHadNotDerivedAreDerivedAndSentAtTheNextStart() {
        Map<String, Object> settings = new LinkedHashMap<>(TestServiceProperties.forDataDirectory(dataDirectory));
        // the first run writes the outbox and sends nothing, as an old version stopped before deriving would
        settings.put("payments.webhooks.dispatch", "false");
        application = EndToEndTestBase.startService(settings);
        servicePublicKey = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/service/public-key"))
                .GET().build()).text();
        int endpointPort = WebhookReceiver.freePort();
        webhooks = new WebhookReceiver(() -> servicePublicKey, endpointPort);
        TestPartner partner = new ServiceClient(baseUrl()).register(new TestPartner("upgrade-shop"),
                WebhookReceiver.url(endpointPort, "upgrade-shop"));
        String derivedBefore = ServiceClient.readyToConfirm(partner, "4242424242424242");
        JdbcTemplate jdbc = application.getBean(JdbcTemplate.class);
        long tokenPosition = jdbc.queryForObject("select max(global_index) from domain_event_entry", Long.class);
        String notDerived = ServiceClient.readyToConfirm(partner, "5555555555554444");
        ServiceClient.confirm(partner, notDerived);
        await().atMost(WAIT).until(() -> "accepted".equals(partner.post("/api/v1/session/status",
                ServiceClient.sessionRef(notDerived)).session().path("status").asText()));
        // what an old version leaves: the tokens of its tracking processor at tokenPosition, and no notification for
        // the events after it
        new TransactionTemplate(application.getBean(PlatformTransactionManager.class)).executeWithoutResult(status ->
                application.getBean(TokenStore.class).initializeTokenSegments("webhook-notifications", 2,
                        GapAwareTrackingToken.newInstance(tokenPosition, Set.of())));
        assertThat(jdbc.update("delete from webhook_notification where session_id = ?", notDerived)).isEqualTo(2);
        application.close();

        settings.put("payments.webhooks.dispatch", "true");
        application = EndToEndTestBase.startService(settings);
        jdbc = application.getBean(JdbcTemplate.class);

        await().atMost(WAIT).until(() -> webhooks.forSession(notDerived).size() == 2);
        assertThat(webhooks.forSession(notDerived)).extracting(Received::type)
                .containsExactly("ready_to_confirm", "payment_finished");
        assertThat(webhooks.forSession(notDerived).get(1).session().path("status").asText()).isEqualTo("accepted");
        await().atMost(WAIT).until(() -> webhooks.forSession(derivedBefore).size() == 1);
        assertThat(webhooks.all()).allSatisfy(webhook -> assertThat(webhook.signatureValid()).isTrue());
        assertThat(jdbc.queryForObject("select count(*) from token_entry where processor_name = 'webhook-notifications'",
                Integer.class)).isZero();
        List<Long> positions = jdbc.queryForList("select event_global_index from webhook_notification"
                + " where session_id = ? order by session_sequence", Long.class, notDerived);
        assertThat(positions).hasSize(2).allSatisfy(position -> assertThat(position).isGreaterThan(tokenPosition));
        Answer status = partner.at(baseUrl()).post("/api/v1/session/status", ServiceClient.sessionRef(notDerived));
        assertThat(status.session().path("status").asText()).isEqualTo("accepted");
    }

    private String baseUrl() {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) application).getWebServer().getPort();
    }
}
