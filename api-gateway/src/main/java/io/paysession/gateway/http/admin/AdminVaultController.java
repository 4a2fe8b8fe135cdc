package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.gateway.security.AdminToken;
import io.paysession.gateway.security.VaultReEncryption;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

/**
 * The vault key rotation's progress (docs/security.md): {@code GET /admin/v1/vault/re-encryption} says how many cards,
 * service keys and idempotency fingerprints each vault key still holds, how many cards are left to re-encrypt, and
 * which older keys may now be removed from the configuration; {@code POST} runs a pass now rather than at the
 * background task's next run. Bearer admin token.
 */
@RestController
public class AdminVaultController {

    private static final String PATH = "/admin/v1/vault/re-encryption";

    private final AdminToken adminToken;
    private final VaultReEncryption reEncryption;

    public AdminVaultController(AdminToken adminToken, VaultReEncryption reEncryption) {
        this.adminToken = adminToken;
        this.reEncryption = reEncryption;
    }

    @GetMapping(PATH)
    public ResponseEntity<ObjectNode> progress(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        requireAdmin(authorization);
        return AdminAnswers.ok(render(reEncryption.progress()));
    }

    @PostMapping(PATH)
    public ResponseEntity<ObjectNode> runNow(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        requireAdmin(authorization);
        long reEncrypted = reEncryption.run();
        ObjectNode answer = render(reEncryption.progress());
        answer.put("re_encrypted_now", reEncrypted);
        return AdminAnswers.ok(answer);
    }

    private void requireAdmin(String authorization) {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
    }

    private static ObjectNode render(VaultReEncryption.Progress progress) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("status", "ok");
        answer.put("active_key_id", progress.activeKeyId());
        progress.configuredKeyIds().forEach(answer.putArray("configured_key_ids")::add);
        answer.put("done", progress.done());
        answer.put("cards_to_re_encrypt", progress.cardsToReEncrypt());
        answer.put("cards_unreadable", progress.unreadable());
        counts(answer.putObject("cards_by_key"), progress.cardsByKey());
        counts(answer.putObject("service_keys_by_key"), progress.serviceKeysByKey());
        counts(answer.putObject("idempotency_keys_by_key"), progress.idempotencyKeysByKey());
        answer.put("personal_data_keys_to_re_seal", progress.personalDataKeysToReSeal());
        counts(answer.putObject("personal_data_keys_by_key"), progress.personalDataKeysByKey());
        progress.removableKeyIds().forEach(answer.putArray("removable_key_ids")::add);
        return answer;
    }

    private static void counts(ObjectNode node, Map<String, Long> counts) {
        counts.forEach(node::put);
    }
}
