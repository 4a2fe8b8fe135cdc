package io.paysession.gateway.idempotency;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.PaymentsException;
import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.http.PartnerSignatureFilter;
import io.paysession.gateway.http.RequestBodies;
import jakarta.servlet.http.HttpServletRequest;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
    private final Map<String, SecretKey> macKeys = new ConcurrentHashMap<>();

    public RequestFingerprint(VaultKeyRing keys) {
        this.keys = keys;
    }

    /** The id of the key that {@link #of(String, String, String, byte[])} uses now. */
    public String activeKeyId() {
        return keys.activeKeyId();
    }

    /** The fingerprint under the active vault key, of a body made canonical by {@link #canonicalBody}. */
    public String of(String method, String path, String submerchant, byte[] canonicalBody) {
        return of(keys.activeKeyId(), method, path, submerchant, canonicalBody).orElseThrow();
    }

    /** The fingerprint under vault key {@code keyId}; empty when that key has left the key ring. */
    public Optional<String> of(String keyId, String method, String path, String submerchant, byte[] canonicalBody) {
        Optional<SecretKey> key = macKey(keyId);
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
            mac.update(canonicalBody);
            return Optional.of(HexFormat.of().formatHex(mac.doFinal()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** Derived once per vault key, not per request. */
    private Optional<SecretKey> macKey(String keyId) {
        SecretKey known = macKeys.get(keyId);
        if (known != null) {
            return Optional.of(known);
        }
        Optional<SecretKey> derived = keys.derivedKey(keyId, PURPOSE);
        derived.ifPresent(key -> macKeys.put(keyId, key));
        return derived;
    }

    /** The body of a verified partner request made canonical, from the tree the request reads anyway. */
    public static byte[] canonicalBody(HttpServletRequest request) {
        try {
            return canonical(RequestBodies.json(request));
        } catch (PaymentsException notJson) {
            return raw((byte[]) request.getAttribute(PartnerSignatureFilter.BODY_ATTRIBUTE));
        }
    }

    /** A body made canonical: as JSON, marked 'J'; a body that is not a JSON object, its bytes, marked 'R'. */
    public static byte[] canonicalBody(byte[] body) {
        try {
            return canonical(JsonBodies.readObject(body));
        } catch (PaymentsException notJson) {
            return raw(body);
        }
    }

    private static byte[] raw(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('R');
        out.writeBytes(body == null ? new byte[0] : body);
        return out.toByteArray();
    }

    private static byte[] canonical(JsonNode tree) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
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
