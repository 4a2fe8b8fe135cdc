package io.paysession.gateway.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.session.SessionId;
import io.paysession.gateway.erasure.Erasures;
import io.paysession.api.wire.Bytes;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.gateway.http.HttpException;
import io.paysession.gateway.http.RequestBodies;
import io.paysession.gateway.partners.PartnerDirectory;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;
import io.paysession.gateway.security.ServiceKeyStore;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.unit.DataSize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A webhook receiver for trying the service by hand: the demo partner's webhooks land here, and
 * {@code GET /sandbox/webhooks/{project}} lists the last ones, newest first, each with the parsed body, the exact
 * bytes received ({@code raw_body}) and its {@code signature} header. Off in the production profile.
 * <p>
 * It holds memory for strangers' requests, so it is bounded: only registered projects have an inbox (any other
 * name is 404 with the body unread); only bodies signed with the service key are kept (anything else is 401, so
 * nobody but the service can push notifications out of an inbox); a body is at most
 * {@link RequestBodies#MAX_INBOX_BYTES}; and each inbox keeps at most {@code max-notifications} notifications and
 * {@code max-bytes} of bodies, dropping the oldest first.
 */
@RestController
@ConditionalOnSandboxRails
@ConditionalOnProperty(name = "payments.sandbox.webhook-inbox.enabled", havingValue = "true", matchIfMissing = true)
public class WebhookInboxController implements Erasures.ErasureListener {

    private final ServiceKeyStore serviceKeys;
    private final PartnerDirectory partners;
    private final Clock clock;
    private final int maxNotifications;
    private final long maxBytes;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, Inbox> inboxes = new ConcurrentHashMap<>();

    public WebhookInboxController(ServiceKeyStore keys, PartnerDirectory partners, Clock clock,
                                  @Value("${payments.sandbox.webhook-inbox.max-notifications:100}") int maxNotifications,
                                  @Value("${payments.sandbox.webhook-inbox.max-bytes:4MB}") DataSize maxBytes) {
        if (maxNotifications < 1 || maxBytes.toBytes() < RequestBodies.MAX_INBOX_BYTES) {
            throw new IllegalStateException("payments.sandbox.webhook-inbox: max-notifications must be 1 or more and "
                    + "max-bytes at least " + RequestBodies.MAX_INBOX_BYTES / 1024 + "KB, the largest webhook body");
        }
        this.serviceKeys = keys;
        this.partners = partners;
        this.clock = clock;
        this.maxNotifications = maxNotifications;
        this.maxBytes = maxBytes.toBytes();
    }

    @PostMapping("/sandbox/webhooks/{project}")
    public ResponseEntity<Void> receive(@PathVariable String project,
                                        @RequestHeader(value = "X-PARTNER-SIGN", required = false) String signature,
                                        @RequestHeader(value = "X-PARTNER-WEBHOOK-ID", required = false) String webhookId,
                                        @RequestHeader(value = "X-PARTNER-SIGN-KEY-ID", required = false) String keyId,
                                        HttpServletRequest request) throws IOException {
        if (!PartnerId.PROJECT.matcher(project).matches() || partners.find(project).isEmpty()) {
            throw new HttpException(404, ErrorCode.INVALID_REQUEST, "No inbox: the project is not registered");
        }
        byte[] body = RequestBodies.readOrRefuse(request);
        // as a partner checks: with the published key the webhook names
        boolean verified = serviceKeys.published().stream()
                .filter(key -> keyId == null || key.keyId().equals(keyId))
                .map(key -> Pem.readRsaPublicKey(key.publicKeyPem()))
                .flatMap(Optional::stream)
                .anyMatch(key -> RsaSignatures.verify(key, body, signature));
        if (!verified) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR,
                    "X-PARTNER-SIGN is not a signature of the body by the published service key X-PARTNER-SIGN-KEY-ID names");
        }
        inboxes.computeIfAbsent(project, key -> new Inbox())
                .add(new Received(WireFormat.now(clock), webhookId, signature, keyId, body), maxNotifications, maxBytes);
        return ResponseEntity.ok().build();
    }

    @GetMapping(value = "/sandbox/webhooks/{project}", produces = MediaType.APPLICATION_JSON_VALUE)
    public JsonNode list(@PathVariable String project) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        Inbox inbox = inboxes.get(project);
        if (inbox != null) {
            inbox.newestFirst().forEach(received -> list.add(render(received)));
        }
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", "ok");
        answer.set("webhooks", list);
        return answer;
    }

    /** Forgets the webhooks of an erased session (docs/erasure.md): they show its personal data as it was. */
    @Override
    public void erased(SessionId session) {
        byte[] id = ("\"" + session.value() + "\"").getBytes(StandardCharsets.UTF_8);
        inboxes.values().forEach(inbox -> inbox.removeIf(received -> Bytes.contains(received.body(), id)));
    }

    private ObjectNode render(Received received) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        entry.put("received_at", WireFormat.timestamp(received.at()));
        if (received.webhookId() != null) {
            entry.put("webhook_id", received.webhookId());
        }
        entry.put("signature_valid", true);
        // the exact bytes and the header, so that anyone can check the signature by hand or with the partner CLI
        entry.put("raw_body", new String(received.body(), StandardCharsets.UTF_8));
        entry.put("signature", received.signature());
        if (received.keyId() != null) {
            entry.put("signature_key_id", received.keyId());
        }
        try {
            entry.set("body", json.readTree(received.body()));
        } catch (IOException e) {
            entry.put("body_unreadable", true);
        }
        return entry;
    }

    /** Kept as received (the raw bytes), so what an inbox holds is what its bound counts. */
    private record Received(Instant at, String webhookId, String signature, String keyId, byte[] body) {
    }

    private static final class Inbox {
        private final Deque<Received> received = new ArrayDeque<>();
        private long bytes;

        synchronized void add(Received entry, int maxNotifications, long maxBytes) {
            received.addFirst(entry);
            bytes += entry.body().length;
            while (received.size() > maxNotifications || bytes > maxBytes) {
                bytes -= received.removeLast().body().length;
            }
        }

        synchronized void removeIf(java.util.function.Predicate<Received> erased) {
            received.removeIf(entry -> {
                if (erased.test(entry)) {
                    bytes -= entry.body().length;
                    return true;
                }
                return false;
            });
        }

        synchronized java.util.List<Received> newestFirst() {
            return java.util.List.copyOf(received);
        }
    }
}
