package io.paysession.gateway.idempotency;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.PaymentsException;
import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.http.JsonBodies;
import org.springframework.stereotype.Component;

import javax.crypto.Mac;
import javax.crypto.SecretKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * What makes two requests "the same request" for an idempotency key: the method, the path (so the API version
 * and the operation), the submerchant header and the body as canonical JSON (members sorted, no whitespace), so
 * that a partner's retry that serializes its JSON differently is still the same request. A body that is not
 * JSON is taken byte for byte.
 * <p>
 * The fingerprint is an HMAC-SHA256 under a key derived from the vault key, not a plain hash: a body can hold a
 * card number, and a plain hash of a body whose other fields are known could be reversed by trying the few
 * million numbers that share a card's known first six and last four digits.
 */
@Component
public class RequestFingerprint {

    private static final String PURPOSE = "idempotency-request-fingerprint-v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final VaultKeyRing keys;

    public RequestFingerprint(VaultKeyRing keys) {
        this.keys = keys;
    }

    /** The id of the key that {@link #of(String, String, String, byte[])} uses now. */
    public String activeKeyId() {
        return keys.activeKeyId();
    }

    public String of(String method, String path, String submerchant, byte[] body) {
        return of(keys.activeKeyId(), method, path, submerchant, body).orElseThrow();
    }

    /** The fingerprint under vault key {@code keyId}; empty when that key has left the key ring. */
    public Optional<String> of(String keyId, String method, String path, String submerchant, byte[] body) {
        Optional<SecretKey> key = keys.derivedKey(keyId, PURPOSE);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key.get());
            for (String part : List.of(method, path, submerchant == null ? "" : submerchant)) {
                mac.update(part.getBytes(StandardCharsets.UTF_8));
                mac.update((byte) 0);
            }
            mac.update(canonical(body));
            return Optional.of(HexFormat.of().formatHex(mac.doFinal()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** The body as canonical JSON, marked 'J'; a body that is not a JSON object, its bytes, marked 'R'. */
    static byte[] canonical(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonNode tree;
        try {
            tree = JsonBodies.readObject(body);
        } catch (PaymentsException notJson) {
            out.write('R');
            out.writeBytes(body == null ? new byte[0] : body);
            return out.toByteArray();
        }
        out.write('J');
        try (JsonGenerator generator = JSON.getFactory().createGenerator(out)) {
            write(tree, generator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void write(JsonNode node, JsonGenerator generator) throws IOException {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> fields = node.fieldNames(); fields.hasNext(); ) {
                names.add(fields.next());
            }
            names.sort(null);
            generator.writeStartObject();
            for (String name : names) {
                generator.writeFieldName(name);
                write(node.get(name), generator);
            }
            generator.writeEndObject();
        } else if (node.isArray()) {
            generator.writeStartArray();
            for (JsonNode element : node) {
                write(element, generator);
            }
            generator.writeEndArray();
        } else {
            generator.writeTree(node);
        }
    }
}
