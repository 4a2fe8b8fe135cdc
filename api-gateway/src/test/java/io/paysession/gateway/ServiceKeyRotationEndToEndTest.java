package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service key rotated with overlap, as partners see it over HTTP: {@code GET /service/public-keys} lists the new
 * key before anything is signed with it and the previous one until its overlap ends; every webhook names its key,
 * and verifies under the key of that id as published when it arrives; a webhook signed before the rotation keeps
 * verifying during the overlap; after it the previous key is no longer published and its private half is gone.
 * A service of its own: rotating the shared one's key would change the key other test classes verify with.
 */
class ServiceKeyRotationEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Map<String, Object> settings = new LinkedHashMap<>(TestServiceProperties.forDataDirectory(
            TestServiceProperties.newDataDirectory("payments-key-rotation")));
    /** Each webhook verified with the key its X-PARTNER-SIGN-KEY-ID names, as published when it arrives. */
    private final WebhookReceiver webhooks = new WebhookReceiver(this::publishedKey, 0);
    private OwnService application;

    @AfterEach
    void stop() {
        if (application != null) {
            application.close();
        }
        webhooks.close();
    }

    @Test
    void theServiceKeyRotatesWithOverlapAndEveryWebhookNamesAPublishedKey() throws Exception {
        // nodes read the keys again every second, so an overlap may be as short as 2 s
        settings.put("payments.service-keys.refresh-interval", "1s");
        application = OwnService.start(settings);
        TestPartner partner = registeredPartner();

        List<JsonNode> before = publishedKeys();
        assertThat(before).hasSize(1);
        String first = before.get(0).path("key_id").asText();
        assertThat(before.get(0).path("status").asText()).isEqualTo("active");
        assertThat(before.get(0).has("valid_until")).isFalse();
        assertThat(before.get(0).path("public_key").asText())
                .as("the single-key address serves the active key").isEqualTo(get("/service/public-key").text());

        String paidBefore = paid(partner);
        Received finishedBefore = webhooks.await(paidBefore, "payment_finished", WAIT);
        assertThat(webhooks.forSession(paidBefore)).allSatisfy(webhook -> {
            assertThat(webhook.signatureKeyId()).isEqualTo(first);
            assertThat(webhook.signatureValid()).isTrue();
        });

        Instant rotatedAt = Instant.now();
        Answer rotated = admin("/admin/v1/service-keys/rotate", "{\"overlap\":\"PT8S\"}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        String second = rotated.body().path("key").path("key_id").asText();
        assertThat(second).isNotEqualTo(first);
        assertThat(rotated.body().path("previous_key").path("key_id").asText()).isEqualTo(first);
        Instant previousUntil = Instant.parse(rotated.body().path("previous_key").path("valid_until").asText());
        assertThat(previousUntil).isBetween(rotatedAt.plusSeconds(7), Instant.now().plusSeconds(9));

        List<JsonNode> during = publishedKeys();
        assertThat(during).extracting(key -> key.path("key_id").asText() + " " + key.path("status").asText())
                .as("the new key is published at once, the previous one until its overlap ends")
                .containsExactly(second + " active", first + " retiring");
        assertThat(Instant.parse(during.get(1).path("valid_until").asText())).isEqualTo(previousUntil);
        assertThat(get("/service/public-key").text()).isEqualTo(during.get(0).path("public_key").asText());

        // what the previous key signed before the rotation still verifies, with the key as published now
        String previousPem = during.get(1).path("public_key").asText();
        assertThat(RsaSignatures.verify(Pem.readRsaPublicKey(previousPem).orElseThrow(),
                finishedBefore.rawBody().getBytes(StandardCharsets.UTF_8), finishedBefore.signature())).isTrue();

        String paidAfter = paid(partner);
        webhooks.await(paidAfter, "payment_finished", WAIT);
        assertThat(webhooks.forSession(paidAfter)).isNotEmpty().allSatisfy(webhook -> {
            assertThat(webhook.signatureKeyId()).as("signed by the new key from the rotation on").isEqualTo(second);
            assertThat(webhook.signatureValid()).isTrue();
            assertThat(RsaSignatures.verify(Pem.readRsaPublicKey(previousPem).orElseThrow(),
                    webhook.rawBody().getBytes(StandardCharsets.UTF_8), webhook.signature()))
                    .as("and not by the previous one").isFalse();
        });

        // the overlap ends: the previous key is no longer published
        while (Instant.now().isBefore(previousUntil.plusMillis(200))) {
            Thread.sleep(100);
        }
        assertThat(publishedKeys()).extracting(key -> key.path("key_id").asText()).containsExactly(second);

        // the next signature's read of the keys retires it: its private half is erased, its public half kept
        String paidLater = paid(partner);
        webhooks.await(paidLater, "payment_finished", WAIT);
        assertThat(webhooks.forSession(paidLater)).allSatisfy(webhook ->
                assertThat(webhook.signatureKeyId()).isEqualTo(second));
        JdbcTemplate jdbc = application.bean(JdbcTemplate.class);
        Map<String, Object> retired = jdbc.queryForMap("select private_key_ciphertext, private_key_pem, retired_at, "
                + "public_key_pem from service_key where key_id = ?", first);
        assertThat(retired.get("private_key_ciphertext")).isNull();
        assertThat(retired.get("private_key_pem")).isNull();
        assertThat(retired.get("retired_at")).isNotNull();
        assertThat(retired.get("public_key_pem")).isEqualTo(previousPem);

        assertThat(webhooks.requests()).as("every webhook named a key published when it arrived")
                .isNotEmpty().allSatisfy(request -> assertThat(request.signatureValid()).isTrue());
    }

    @Test
    void aRotationIsRefusedWithoutTheAdminTokenOrWithAnOverlapOutOfBounds() {
        application = OwnService.start(settings);
        String only = publishedKeys().get(0).path("key_id").asText();

        assertThat(admin("/admin/v1/service-keys/rotate", "{}", null).errorCode()).isEqualTo("authentication_error");
        assertThat(admin("/admin/v1/service-keys/rotate", "{}", "wrong-token").status()).isEqualTo(401);
        for (String overlap : List.of("\"PT1S\"", "\"P91D\"", "\"next week\"", "3600", "\"-PT1H\"")) {
            Answer refused = admin("/admin/v1/service-keys/rotate", "{\"overlap\":" + overlap + "}",
                    TestServiceProperties.ADMIN_TOKEN);
            assertThat(refused.status()).as(overlap + ": " + refused).isEqualTo(400);
            assertThat(refused.errorCode()).isEqualTo("invalid_request");
            assertThat(refused.errorDescription()).contains("overlap");
        }
        assertThat(publishedKeys()).as("nothing rotated").extracting(key -> key.path("key_id").asText())
                .containsExactly(only);

        // without an overlap, the configured one (7 days by default)
        Answer rotated = admin("/admin/v1/service-keys/rotate", null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        Instant until = Instant.parse(rotated.body().path("previous_key").path("valid_until").asText());
        assertThat(Duration.between(Instant.now(), until)).isBetween(Duration.ofDays(7).minusMinutes(1),
                Duration.ofDays(7));
        assertThat(publishedKeys()).hasSize(2);
    }

    private Optional<String> publishedKey(String keyId) {
        return publishedKeys().stream().filter(key -> key.path("key_id").asText().equals(keyId))
                .map(key -> key.path("public_key").asText()).findFirst();
    }

    private List<JsonNode> publishedKeys() {
        Answer answer = get("/service/public-keys");
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return StreamSupport.stream(answer.body().path("keys").spliterator(), false).toList();
    }

    private String paid(TestPartner partner) {
        // a body of its own each time: a signed money-moving body is accepted once
        Answer init = partner.post("/api/v1/session/init/payment",
                EndToEndTestBase.cardPayment("4242424242424242", "123").put("metadata", "order " + UUID.randomUUID()));
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        webhooks.await(sessionId, "ready_to_confirm", WAIT);
        Answer confirmed = partner.post("/api/v1/session/confirm", EndToEndTestBase.sessionRef(sessionId));
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        return sessionId;
    }

    private TestPartner registeredPartner() {
        return application.register("key-rotation-shop", webhooks.url("key-rotation-shop"));
    }

    private Answer admin(String path, String json, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .header("Content-Type", "application/json")
                .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return TestPartner.exchange(request.build());
    }

    private Answer get(String path) {
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET().build());
    }

    private String baseUrl() {
        return application.baseUrl();
    }
}
