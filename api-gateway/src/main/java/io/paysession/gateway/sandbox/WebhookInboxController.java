package io.paysession.gateway.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;
import io.paysession.gateway.security.ServiceKeyStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A webhook receiver for trying the service by hand: the demo partner's webhooks land here, their
 * signatures are checked with the service public key, and {@code GET /sandbox/webhooks/{project}} lists
 * the last 100, newest first. Off in the production profile.
 */
@RestController
@ConditionalOnSandboxRails
@ConditionalOnProperty(name = "payments.sandbox.webhook-inbox.enabled", havingValue = "true", matchIfMissing = true)
public class WebhookInboxController {

    private static final int KEPT = 100;

    private final RSAPublicKey serviceKey;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, Deque<ObjectNode>> received = new ConcurrentHashMap<>();

    public WebhookInboxController(ServiceKeyStore keys, Clock clock) {
        this.serviceKey = Pem.readRsaPublicKey(keys.publicKeyPem()).orElseThrow();
        this.clock = clock;
    }

    @PostMapping("/sandbox/webhooks/{project}")
    public ResponseEntity<Void> receive(@PathVariable String project,
                                        @RequestHeader(value = "X-PARTNER-SIGN", required = false) String signature,
                                        @RequestHeader(value = "X-PARTNER-WEBHOOK-ID", required = false) String webhookId,
                                        @RequestBody byte[] body) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        entry.put("received_at", WireFormat.timestamp(WireFormat.now(clock)));
        if (webhookId != null) {
            entry.put("webhook_id", webhookId);
        }
        entry.put("signature_valid", RsaSignatures.verify(serviceKey, body, signature));
        try {
            entry.set("body", json.readTree(body));
        } catch (IOException e) {
            entry.put("body_unreadable", true);
        }
        Deque<ObjectNode> inbox = received.computeIfAbsent(project, key -> new ArrayDeque<>());
        synchronized (inbox) {
            inbox.addFirst(entry);
            while (inbox.size() > KEPT) {
                inbox.removeLast();
            }
        }
        return ResponseEntity.ok().build();
    }

    @GetMapping(value = "/sandbox/webhooks/{project}", produces = MediaType.APPLICATION_JSON_VALUE)
    public JsonNode list(@PathVariable String project) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        Deque<ObjectNode> inbox = received.getOrDefault(project, new ArrayDeque<>());
        synchronized (inbox) {
            inbox.forEach(list::add);
        }
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", "ok");
        answer.set("webhooks", list);
        return answer;
    }
}
