package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

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
        assertThatThrownBy(() -> JsonBodies.readObject(bytes("{\"4242424242424242\":1,\"4242424242424242\":2}")))
                .hasMessageContaining("Duplicate field").hasMessageNotContaining("4242424242424242");
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

    @ParameterizedTest
    @ValueSource(strings = {"C0 AF", "C0 80", "E0 80 AF", "ED A0 80", "F4 90 80 80", "F5 80 80 80", "80", "E2 82"})
    void bytesThatAreNotStrictUtf8AreRefusedAlthoughJacksonWouldReadSomeOfThem(String hex) {
        byte[] inner = HexFormat.ofDelimiter(" ").parseHex(hex);
        byte[] body = concat(bytes("{\"metadata\":\"x"), inner, bytes("\"}"));
        assertThatThrownBy(() -> JsonBodies.readObject(body))
                .isInstanceOf(PaymentsException.class).hasMessage("The body is not valid UTF-8");
    }

    @Test
    void aBodyInUtf16IsNotReadAsJson() {
        assertThatThrownBy(() -> JsonBodies.readObject("{\"a\":1}".getBytes(StandardCharsets.UTF_16LE)))
                .isInstanceOf(PaymentsException.class).hasMessageStartingWith("The body is not valid JSON");
    }

    @Test
    void aLeadingByteOrderMarkIsIgnored() {
        byte[] body = concat(new byte[]{(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, bytes("{\"session_id\":\"ps_1\"}"));
        assertThat(JsonBodies.readObject(body).path("session_id").asText()).isEqualTo("ps_1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"customer\":{\"reference\":\"a\\u0000b\"}}        | customer.reference contains a NUL character",
            "{\"metadata\":{\"x\":[\"\\ud800\"]}}                | metadata.x[0] contains an unpaired surrogate",
            "{\"metadata\":\"\\udc00x\"}                          | metadata contains an unpaired surrogate",
            "{\"metadata\":{\"a\\u0000\":1}}                      | A field name in metadata contains a NUL character",
            "{\"metadata\":{\"x\":1e999999999}}                     | metadata.x is a number out of range",
            "{\"metadata\":{\"x\":1e-2000}}                         | metadata.x is a number out of range",
            "{\"metadata\":{\"x\":1e301}}                           | metadata.x is a number out of range",
            "{\"metadata\":{\"x\":-7e-301}}                         | metadata.x is a number out of range",
            "{\"metadata\":{\"x\":1e9999999999}}                    | The body holds a number out of range"})
    void stringsAndNumbersNoStoreCanHoldAreRefusedNamingTheField(String json, String message) {
        assertThatThrownBy(() -> JsonBodies.readObject(bytes(json)))
                .isInstanceOf(PaymentsException.class).hasMessageStartingWith(message);
    }

    @Test
    void aFieldNameThatLooksLikeACardNumberIsNotRepeatedInTheRefusal() {
        assertThatThrownBy(() -> JsonBodies.readObject(bytes("{\"metadata\":{\"4242424242424242\":\"a\\u0000\"}}")))
                .isInstanceOf(PaymentsException.class)
                .hasMessage("metadata.<digits> contains a NUL character");
    }

    @Test
    void pairedSurrogatesAndModestExponentsAreAccepted() {
        ObjectNode body = JsonBodies.readObject(bytes("{\"metadata\":{\"note\":\"\\ud83d\\ude00 ok\",\"rate\":1.5e300,\"tiny\":-2.5e-300}}"));
        assertThat(body.at("/metadata/note").asText()).isEqualTo("\uD83D\uDE00 ok");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"text\"", "42", "null", "true", "[1]", "[{}]"})
    void aBodyThatIsNotAnObjectIsRefused(String json) {
        assertThatThrownBy(() -> JsonBodies.readObject(bytes(json)))
                .isInstanceOf(PaymentsException.class).hasMessage("The body must be a JSON object");
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Test
    void nullsAreDroppedFromPartnerDataAtEveryDepth() throws Exception {
        JsonNode data = new ObjectMapper().readTree("{\"a\":null,\"b\":{\"c\":null,\"d\":1},\"e\":[null,2]}");
        assertThat(JsonBodies.withoutNulls(data).toString()).isEqualTo("{\"b\":{\"d\":1},\"e\":[2]}");
    }
}
