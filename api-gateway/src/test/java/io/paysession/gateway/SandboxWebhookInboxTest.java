package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;
import io.paysession.gateway.security.ServiceKeyStore;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.RawHttpConnection;
import io.paysession.gateway.support.RawHttpConnection.RawAnswer;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sandbox webhook inbox holds memory for whoever posts to it, so it is bounded: an inbox only for registered
 * projects, only bodies the service signed, at most 100 notifications and 4 MB of bodies per project (the oldest
 * dropped), a body at most 512 KiB.
 */
class SandboxWebhookInboxTest extends EndToEndTestBase {

    @Autowired
    private ServiceKeyStore serviceKey;

    @Test
    void anUnregisteredProjectHasNoInboxAndItsBodyIsNotRead() {
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/sandbox/webhooks/made-up-project-" + System.nanoTime(),
                    "Content-Type: application/json", "Content-Length: " + 256L * 1024 * 1024).answer();
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
            assertThat(connection.bodyBytesSent()).isZero();
        }
    }

    @Test
    void theServicesOwnWebhooksLandInTheInboxAndNothingUnsignedDoes() throws Exception {
        TestPartner partner = registeredPartner("inbox-real", project -> baseUrl() + "/sandbox/webhooks/" + project);
        Answer forged = post(partner.project(), "{\"type\":\"payment_finished\",\"session\":{\"id\":\"ps_1\"}}",
                partner.sign("{}".getBytes(StandardCharsets.UTF_8)));
        assertThat(forged.status()).isEqualTo(401);
        assertThat(forged.errorCode()).isEqualTo("authentication_error");
        assertThat(post(partner.project(), "{}", null).status()).isEqualTo(401);

        Answer init = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123"));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> inbox(partner.project()).size() == 1);
        JsonNode kept = inbox(partner.project()).get(0);
        assertThat(kept.path("body").path("type").asText()).isEqualTo("ready_to_confirm");
        assertThat(kept.path("signature_valid").asBoolean()).isTrue();
        // the exact bytes and the header as received: a signature anyone can check by hand
        byte[] raw = kept.path("raw_body").asText().getBytes(StandardCharsets.UTF_8);
        assertThat(RsaSignatures.verify(Pem.readRsaPublicKey(serviceKey.publicKeyPem()).orElseThrow(), raw,
                kept.path("signature").asText())).isTrue();
        assertThat(kept.path("signature_key_id").asText()).as("the key the webhook named").isEqualTo(serviceKey.keyId());
        assertThat(kept.path("body")).isEqualTo(new ObjectMapper().readTree(raw));
    }

    @Test
    void anInboxKeepsTheNewestWithinItsCountAndItsBytes() {
        String project = registeredPartner("inbox-bounds").project();
        for (int i = 1; i <= 101; i++) {
            assertThat(postSigned(project, "{\"type\":\"n" + i + "\"}").status()).isEqualTo(200);
        }
        List<JsonNode> small = inbox(project);
        assertThat(small).hasSize(100);
        assertThat(small.get(0).path("body").path("type").asText()).isEqualTo("n101");
        assertThat(small.get(99).path("body").path("type").asText()).isEqualTo("n2");

        String padding = "x".repeat(500 * 1024);
        for (int i = 1; i <= 9; i++) {
            assertThat(postSigned(project, "{\"type\":\"big" + i + "\",\"p\":\"" + padding + "\"}").status()).isEqualTo(200);
        }
        List<JsonNode> big = inbox(project);
        List<String> types = new ArrayList<>();
        big.forEach(entry -> types.add(entry.path("body").path("type").asText()));
        // 8 bodies of 500 KiB fit in 4 MB, a ninth does not: the oldest big one and every small one are gone
        assertThat(types).containsExactly("big9", "big8", "big7", "big6", "big5", "big4", "big3", "big2");

        Answer tooLarge = postSigned(project, "{\"p\":\"" + "x".repeat(512 * 1024) + "\"}");
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.errorDescription()).contains("512 KiB");
    }

    private Answer postSigned(String project, String json) {
        return post(project, json, serviceKey.sign(json.getBytes(StandardCharsets.UTF_8)).value());
    }

    private Answer post(String project, String json, String signature) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + "/sandbox/webhooks/" + project))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (signature != null) {
            request.header("X-PARTNER-SIGN", signature);
        }
        return TestPartner.exchange(request.build());
    }

    private List<JsonNode> inbox(String project) {
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/sandbox/webhooks/" + project))
                .GET().build());
        assertThat(answer.status()).isEqualTo(200);
        List<JsonNode> entries = new ArrayList<>();
        answer.body().path("webhooks").forEach(entries::add);
        return entries;
    }
}
