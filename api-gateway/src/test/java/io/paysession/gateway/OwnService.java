package io.paysession.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service of its own, not the shared one of {@link EndToEndTestBase}: for a test that needs other settings
 * (default time limits, a vault key of its own), restarts, or changes what every test would see (the service key).
 * Started with {@code settings} ({@link EndToEndTestBase#startService}); its public key read once it is up.
 */
final class OwnService implements AutoCloseable {

    private final ConfigurableApplicationContext application;
    private final String servicePublicKey;

    private OwnService(ConfigurableApplicationContext application) {
        this.application = application;
        this.servicePublicKey = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/service/public-key"))
                .GET().build()).text();
    }

    static OwnService start(Map<String, Object> settings) {
        return new OwnService(EndToEndTestBase.startService(settings));
    }

    String baseUrl() {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) application).getWebServer().getPort();
    }

    /** The active service key (PEM) when the service started. */
    String servicePublicKey() {
        return servicePublicKey;
    }

    <T> T bean(Class<T> type) {
        return application.getBean(type);
    }

    /** A new partner {@code project} registered through the admin API, its webhooks to {@code webhookUrl}. */
    TestPartner register(String project, String webhookUrl) {
        return register(project, webhookUrl, "auto");
    }

    TestPartner register(String project, String webhookUrl, String captureMode) {
        TestPartner partner = new TestPartner(project).at(baseUrl());
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", webhookUrl)
                .put("capture_mode", captureMode);
        Answer registered = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/admin/v1/partners"))
                .header("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        return partner;
    }

    @Override
    public void close() {
        application.close();
    }
}
