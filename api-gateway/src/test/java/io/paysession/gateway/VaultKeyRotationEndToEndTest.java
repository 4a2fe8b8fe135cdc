package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A vault key rotation while the service runs: cards tokenized under the first key are re-encrypted under the next
 * one in the background, the admin API shows the progress and then the first key removable, and after a restart
 * without the first key (retired) every card tokenized under it still pays out.
 */
class VaultKeyRotationEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> CARDS = List.of("4242424242424242", "4111111111111111", "5555555555554444",
            "4012888888881881", "5105105105105100");

    private final Map<String, Object> settings = new LinkedHashMap<>(TestServiceProperties.forDataDirectory(
            TestServiceProperties.newDataDirectory("payments-vault-rotation")));
    private volatile String servicePublicKey;
    private final WebhookReceiver webhooks = new WebhookReceiver(() -> servicePublicKey);
    private OwnService application;

    @AfterEach
    void stop() {
        if (application != null) {
            application.close();
        }
        webhooks.close();
    }

    @Test
    void cardsMoveToTheNextVaultKeyInTheBackgroundAndPayOutAfterTheFirstKeyIsRetired() throws Exception {
        String firstKey = aesKey();
        String nextKey = aesKey();
        settings.put("payments.vault.key", firstKey);
        settings.put("payments.vault.key-id", "vault-key-1");
        start();
        TestPartner partner = registeredPartner();
        List<String> tokens = new ArrayList<>();
        for (String number : CARDS) {
            Answer tokenized = partner.post("/cds/v1/tokenize/elements", "{\"card_elements\":[{\"ref\":\"number\","
                    + "\"type\":\"card_number\",\"card_number\":\"" + number + "\"}]}");
            assertThat(tokenized.status()).as(tokenized.toString()).isEqualTo(200);
            tokens.add(tokenized.body().at("/data/number/token").asText());
        }
        // a payout under the first key: its personal data's key, and the index of customers, sealed under it
        String earlySession = payOut(partner, tokens.get(1)).session().path("id").asText();
        JsonNode before = progress();
        assertThat(before.path("personal_data_keys_by_key").path("vault-key-1").asLong())
                .as("the payout's data key and the index key").isEqualTo(2);
        assertThat(before.path("active_key_id").asText()).isEqualTo("vault-key-1");
        assertThat(before.path("cards_by_key").path("vault-key-1").asLong()).isEqualTo(CARDS.size());
        assertThat(before.path("done").asBoolean()).isTrue();
        assertThat(before.path("removable_key_ids")).isEmpty();

        // the rotation: the next key active, the first kept to read what it encrypted; two cards a run
        application.close();
        settings.put("payments.vault.key", nextKey);
        settings.put("payments.vault.key-id", "vault-key-2");
        settings.put("payments.vault.previous-keys.vault-key-1", firstKey);
        settings.put("payments.vault.re-encryption.batch-size", "2");
        settings.put("payments.vault.re-encryption.max-run", "1ms");
        settings.put("payments.vault.re-encryption.interval", "300ms");
        start();
        partner.at(baseUrl());
        assertThat(payOut(partner, tokens.get(0)).session().path("status").asText())
                .as("a card under the first key pays out while the rotation runs").isEqualTo("accepted");

        List<Long> remaining = new ArrayList<>();
        JsonNode progress = progress();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!progress.path("done").asBoolean() && System.nanoTime() < deadline) {
            remaining.add(progress.path("cards_to_re_encrypt").asLong());
            Thread.sleep(50);
            progress = progress();
        }
        assertThat(progress.path("done").asBoolean()).as(progress.toString()).isTrue();
        assertThat(remaining).as("only ever less left").isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(progress.path("active_key_id").asText()).isEqualTo("vault-key-2");
        assertThat(progress.path("cards_by_key").path("vault-key-2").asLong()).isEqualTo(CARDS.size());
        assertThat(progress.path("cards_by_key").has("vault-key-1")).isFalse();
        assertThat(progress.path("service_keys_by_key").path("vault-key-2").asLong())
                .as("the service key was sealed again at start").isEqualTo(1);
        assertThat(progress.path("personal_data_keys_by_key").has("vault-key-1")).as(progress.toString()).isFalse();
        assertThat(progress.path("personal_data_keys_to_re_seal").asLong()).isZero();
        assertThat(progress.path("removable_key_ids").toString()).isEqualTo("[\"vault-key-1\"]");
        JdbcTemplate jdbc = application.bean(JdbcTemplate.class);
        assertThat(jdbc.queryForList("select distinct key_id from card_vault", String.class))
                .containsExactly("vault-key-2");
        Answer refused = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl()
                + "/admin/v1/vault/re-encryption")).GET().build());
        assertThat(refused.status()).isEqualTo(401);

        // the first key retired: gone from the configuration, and every card still pays out
        application.close();
        settings.remove("payments.vault.previous-keys.vault-key-1");
        start();
        partner.at(baseUrl());
        JsonNode after = progress();
        assertThat(after.path("configured_key_ids").toString()).isEqualTo("[\"vault-key-2\"]");
        assertThat(after.path("cards_unreadable").asLong()).isZero();
        // the payout made under the first key still reads (its data key was sealed again), and its customer is found
        Answer early = partner.post("/api/v1/session/status",
                JsonNodeFactory.instance.objectNode().put("session_id", earlySession));
        assertThat(early.text()).contains("Anna Petrova", "rotating-customer");
        for (int i = 0; i < tokens.size(); i++) {
            Received finished = payOut(partner, tokens.get(i));
            assertThat(finished.session().path("status").asText()).as("card " + i).isEqualTo("accepted");
            assertThat(finished.rawBody()).contains(CARDS.get(i).substring(12)).doesNotContain(CARDS.get(i));
        }
        // the index of customers outlived the first key too: the erasure finds the payout made under it
        Answer erasure = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/admin/v1/erasures"))
                .header("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"project\":\"vault-rotation-shop\","
                        + "\"customer_reference\":\"rotating-customer\"}")).build());
        assertThat(erasure.status()).as(erasure.toString()).isEqualTo(202);
        assertThat(erasure.body().path("erasure").path("session_ids").toString()).contains(earlySession);
    }

    private JsonNode progress() {
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl()
                        + "/admin/v1/vault/re-encryption"))
                .header("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN).GET().build());
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body();
    }

    /** A card payout of 1 500.00 RUB by a tokenized card, confirmed; its signed {@code payment_finished}. */
    private Received payOut(TestPartner partner, String token) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_method").put("type", "card").putObject("card").put("type", "tokenized_card")
                .putObject("tokenized_card").put("token", token);
        body.putObject("amount_details").put("amount", 150_000).put("currency", "rub");
        body.putObject("participant_details").putObject("recipient").put("full_name", "Anna Petrova");
        body.put("metadata", "payout " + UUID.randomUUID());
        body.putObject("customer").put("reference", "rotating-customer");
        Answer init = partner.post("/api/v1/session/init/payout", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        webhooks.await(sessionId, "ready_to_confirm", WAIT);
        Answer confirm = partner.post("/api/v1/session/confirm",
                JsonNodeFactory.instance.objectNode().put("session_id", sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        Received finished = webhooks.await(sessionId, "payment_finished", WAIT);
        assertThat(finished.signatureValid()).isTrue();
        return finished;
    }

    private TestPartner registeredPartner() {
        return application.register("vault-rotation-shop", webhooks.url("vault-rotation-shop"));
    }

    private void start() {
        application = OwnService.start(settings);
        servicePublicKey = application.servicePublicKey();
    }

    private String baseUrl() {
        return application.baseUrl();
    }

    private static String aesKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
