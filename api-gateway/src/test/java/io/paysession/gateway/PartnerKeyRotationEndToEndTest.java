package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;

import java.security.KeyPair;
import java.util.List;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A partner rotates its own key without an outage: the operator adds its next key, requests verify under either,
 * the partner moves to the new one, the operator removes the old one, and requests signed with it are refused.
 */
class PartnerKeyRotationEndToEndTest extends EndToEndTestBase {

    private static final String TOKEN = TestServiceProperties.ADMIN_TOKEN;

    @Test
    void aPartnerMovesToItsNextKeyWithBothAcceptedInBetween() {
        TestPartner old = registeredPartner("partner-keys");
        String project = old.project();
        TestPartner next = TestPartner.withKeys(project, TestPartner.newKeyPair()).at(baseUrl());
        String sessionId = initiatedAndConfirmed(old, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123"));

        List<JsonNode> keys = keysOf(admin("GET", "/admin/v1/partners/" + project, null, TOKEN));
        assertThat(keys).hasSize(1);
        String oldKeyId = keys.get(0).path("key_id").asText();
        assertThat(oldKeyId).matches("[0-9a-f]{16}");
        assertThat(status(next, sessionId).errorCode()).as("a key not registered yet").isEqualTo("authentication_error");

        Answer added = admin("POST", "/admin/v1/partners/" + project + "/public-keys",
                "{\"public_key\":" + quoted(next.publicKeyPem()) + "}", TOKEN);
        assertThat(added.status()).as(added.toString()).isEqualTo(200);
        keys = keysOf(added);
        assertThat(keys).extracting(key -> key.path("public_key").asText())
                .containsExactly(old.publicKeyPem().trim() + "\n", next.publicKeyPem().trim() + "\n");
        String nextKeyId = keys.get(1).path("key_id").asText();
        assertThat(added.body().path("partner").path("public_key").asText()).isEqualTo(keys.get(0).path("public_key").asText());

        // both verify while the partner moves, for reads and for money-moving calls alike
        assertThat(status(old, sessionId).status()).isEqualTo(200);
        assertThat(status(next, sessionId).status()).isEqualTo(200);
        String paidWithNext = initiatedAndConfirmed(next, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123"));
        assertThat(WEBHOOKS.await(paidWithNext, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");

        // the same key again changes nothing; a third is refused
        Answer again = admin("POST", "/admin/v1/partners/" + project + "/public-keys",
                "{\"public_key\":" + quoted(next.publicKeyPem()) + "}", TOKEN);
        assertThat(keysOf(again)).hasSize(2);
        KeyPair third = TestPartner.newKeyPair();
        Answer refused = admin("POST", "/admin/v1/partners/" + project + "/public-keys",
                "{\"public_key\":" + quoted(TestPartner.withKeys(project, third).publicKeyPem()) + "}", TOKEN);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.errorCode()).isEqualTo("invalid_request");
        assertThat(admin("POST", "/admin/v1/partners/" + project + "/public-keys",
                "{\"public_key\":\"not a key\"}", TOKEN).errorCode()).isEqualTo("invalid_request");

        // a settings change without public_key keeps both keys
        Answer changed = admin("PUT", "/admin/v1/partners/" + project, "{\"capture_mode\":\"auto\"}", TOKEN);
        assertThat(keysOf(changed)).hasSize(2);

        Answer removed = admin("DELETE", "/admin/v1/partners/" + project + "/public-keys/" + oldKeyId, null, TOKEN);
        assertThat(removed.status()).as(removed.toString()).isEqualTo(200);
        assertThat(keysOf(removed)).extracting(key -> key.path("key_id").asText()).containsExactly(nextKeyId);
        assertThat(removed.body().path("partner").path("public_key").asText())
                .isEqualTo(next.publicKeyPem().trim() + "\n");
        awaitRefused(old, sessionId);
        assertThat(status(next, sessionId).status()).isEqualTo(200);

        assertThat(admin("DELETE", "/admin/v1/partners/" + project + "/public-keys/" + nextKeyId, null, TOKEN)
                .errorCode()).as("the only key stays").isEqualTo("invalid_request");
        assertThat(admin("DELETE", "/admin/v1/partners/" + project + "/public-keys/" + oldKeyId, null, TOKEN)
                .status()).as("a key the partner no longer has").isEqualTo(404);
        assertThat(admin("DELETE", "/admin/v1/partners/" + project + "/public-keys/" + oldKeyId, null, null)
                .status()).isEqualTo(401);
        assertThat(status(next, sessionId).status()).isEqualTo(200);
    }

    /** Other nodes, and this one's cache of partners, see a change within {@code payments.cache.partner-ttl} (1 s). */
    private void awaitRefused(TestPartner partner, String sessionId) {
        long until = System.nanoTime() + 5_000_000_000L;
        Answer answer = status(partner, sessionId);
        while (answer.status() != 401 && System.nanoTime() < until) {
            sleep();
            answer = status(partner, sessionId);
        }
        assertThat(answer.errorCode()).as("signed with the removed key").isEqualTo("authentication_error");
    }

    private static Answer status(TestPartner partner, String sessionId) {
        return partner.post("/api/v1/session/status", sessionRef(sessionId));
    }

    private static List<JsonNode> keysOf(Answer answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return StreamSupport.stream(answer.body().path("partner").path("public_keys").spliterator(), false).toList();
    }

    private static String quoted(String text) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(text).toString();
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
