package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonBodiesTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anEmptyBodyAndAnEmptyArrayReadAsAnEmptyObject() {
        assertThat(JsonBodies.readObject(new byte[0])).isEmpty();
        assertThat(JsonBodies.readObject(bytes("  \n"))).isEmpty();
        assertThat(JsonBodies.readObject(bytes("[]"))).isEmpty();
    }

    @Test
    void aRefusalOfMalformedJsonNeverQuotesTheBody() {
        String body = "{\"payment_details\":{\"card\":{\"number\":\"4242424242424242\" oops";
        assertThatThrownBy(() -> JsonBodies.readObject(bytes(body)))
                .isInstanceOfSatisfying(PaymentsException.class, refusal -> {
                    assertThat(refusal.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                    assertThat(refusal.getMessage()).startsWith("The body is not valid JSON").doesNotContain("4242");
                });
    }

    @Test
    void duplicateKeysTrailingDataAndDeepNestingAreRefused() {
        assertThatThrownBy(() -> JsonBodies.readObject(bytes("{\"a\":1,\"a\":2}")))
                .hasMessageContaining("Duplicate field 'a'");
        assertThatThrownBy(() -> JsonBodies.readObject(bytes("{\"a\":1} {\"b\":2}")))
                .isInstanceOf(PaymentsException.class);
        assertThatThrownBy(() -> JsonBodies.readObject(bytes("{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}")))
                .isInstanceOf(PaymentsException.class).hasMessageContaining("nesting");
        assertThatThrownBy(() -> JsonBodies.readObject(bytes("{\"amount\":" + "9".repeat(100) + "}")))
                .isInstanceOf(PaymentsException.class);
    }

    @Test
    void invalidUtf8IsAnInvalidRequest() {
        byte[] body = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertThatThrownBy(() -> JsonBodies.readObject(body)).isInstanceOf(PaymentsException.class);
    }

    @Test
    void nullsAreDroppedFromPartnerDataAtEveryDepth() throws Exception {
        JsonNode data = new ObjectMapper().readTree("{\"a\":null,\"b\":{\"c\":null,\"d\":1},\"e\":[null,2]}");
        assertThat(JsonBodies.withoutNulls(data).toString()).isEqualTo("{\"b\":{\"d\":1},\"e\":[2]}");
    }
}
