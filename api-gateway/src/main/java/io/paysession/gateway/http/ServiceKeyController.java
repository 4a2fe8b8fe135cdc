package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.wire.WireFormat;
import io.paysession.gateway.security.ServiceKeyStore;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The public keys that verify webhooks, without authentication: {@code /service/public-key}, the active one as
 * PEM (what partners' SDKs fetch), and {@code /service/public-keys}, the active one and those still valid after a
 * rotation, with their ids (each webhook names its key in {@code X-PARTNER-SIGN-KEY-ID}) and validity.
 */
@RestController
public class ServiceKeyController {

    private final ServiceKeyStore keys;

    public ServiceKeyController(ServiceKeyStore keys) {
        this.keys = keys;
    }

    @GetMapping(value = "/service/public-key")
    public ResponseEntity<String> publicKey() {
        ServiceKeyStore.SigningKey active = keys.current();
        return ResponseEntity.ok().contentType(new MediaType("application", "x-pem-file"))
                .header("X-Service-Key-Id", active.keyId())
                .body(active.publicKeyPem());
    }

    @GetMapping(value = "/service/public-keys", produces = MediaType.APPLICATION_JSON_VALUE)
    public ObjectNode publicKeys() {
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", "ok");
        ArrayNode list = answer.putArray("keys");
        keys.published().forEach(key -> render(list.addObject(), key));
        return answer;
    }

    /** A published key on the wire: {@code valid_until} only for one being retired (absent, never null). */
    public static void render(ObjectNode node, ServiceKeyStore.PublishedKey key) {
        node.put("key_id", key.keyId());
        node.put("status", key.active() ? "active" : "retiring");
        node.put("public_key", key.publicKeyPem());
        node.put("valid_from", WireFormat.timestamp(key.validFrom()));
        if (key.validUntil() != null) {
            node.put("valid_until", WireFormat.timestamp(key.validUntil()));
        }
    }
}
