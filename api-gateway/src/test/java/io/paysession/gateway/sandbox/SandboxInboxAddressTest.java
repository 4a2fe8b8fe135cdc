package io.paysession.gateway.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/** Only the service's own inbox on its own port passes as the inbox; nothing else on loopback does. */
class SandboxInboxAddressTest {

    private final SandboxInboxAddress inbox = new SandboxInboxAddress();

    @Test
    void theDemoPartnersWebhookUrlIsTheOwnInbox() {
        inbox.listeningOn(8080);

        assertThat(inbox.isOwnInbox(URI.create("http://localhost:8080/sandbox/webhooks/demo"))).isTrue();
        assertThat(inbox.isOwnInbox(URI.create("http://127.0.0.1:8080/sandbox/webhooks/shop-2.test"))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "http://localhost:8081/sandbox/webhooks/demo",          // another port: another service
            "https://localhost:8080/sandbox/webhooks/demo",
            "http://localhost/sandbox/webhooks/demo",
            "http://localhost:8080/admin/v1/partners",
            "http://localhost:8080/actuator/prometheus",
            "http://localhost:8080/sandbox/webhooks/demo/../../admin/v1/partners",
            "http://localhost:8080/sandbox/webhooks/%2e%2e%2fadmin",
            "http://localhost:8080/sandbox/webhooks/demo?x=1",
            "http://localhost:8080/sandbox/webhooks/demo#x",
            "http://admin:secret@localhost:8080/sandbox/webhooks/demo",
            "http://10.0.0.1:8080/sandbox/webhooks/demo",
            "http://localhost.attacker.example:8080/sandbox/webhooks/demo",
            "http://localhost:8080/sandbox/webhooks/"})
    void nothingElseIs(String url) {
        inbox.listeningOn(8080);

        assertThat(inbox.isOwnInbox(URI.create(url))).isFalse();
    }

    @Test
    void beforeTheServiceListensNothingIs() {
        assertThat(inbox.isOwnInbox(URI.create("http://localhost:8080/sandbox/webhooks/demo"))).isFalse();
    }
}
