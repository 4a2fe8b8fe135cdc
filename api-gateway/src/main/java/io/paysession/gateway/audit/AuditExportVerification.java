package io.paysession.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.PaymentsException;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks an audit export (docs/audit.md, the algorithm written out there): every line's {@code hash} is the SHA-256
 * of its canonical form, every line's {@code prev} is the hash of the line before it (the first line's, the head
 * the export says it continues, or the one the auditor expects), the positions only grow, and the last line is the
 * head: the last hash, the number of lines, signed by the service key given. Any line changed, removed, inserted or
 * reordered, or a head not signed by that key, is a problem; the export is intact only without any.
 */
public final class AuditExportVerification {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AuditExportVerification() {
    }

    /** The verdict: the problems found (none: intact) and the head's hash when there is a head. */
    public record Result(List<String> problems, long events, String headHash) {
        public boolean intact() {
            return problems.isEmpty();
        }
    }

    /**
     * @param expectedPreviousHead the head of the export this one must continue, or {@code null} to take the one its
     *                             head names
     */
    /** The service keys to check a head with: one key, or the published ones by id. */
    public interface Keys {

        /** The key for a head naming {@code keyId}; empty when none given has that id. */
        Optional<PublicKey> forHead(String keyId);

        static Keys single(PublicKey key) {
            return keyId -> Optional.of(key);
        }

        /** The JSON of {@code GET /service/public-keys}: the key whose {@code key_id} the head names. */
        static Keys published(String json) {
            JsonNode list;
            try {
                list = JSON.readTree(json).path("keys");
            } catch (IOException e) {
                throw PaymentsException.invalidRequest("the published keys are not JSON (GET /service/public-keys)");
            }
            return keyId -> {
                for (JsonNode key : list) {
                    if (key.path("key_id").asText().equals(keyId)) {
                        return Pem.readRsaPublicKey(key.path("public_key").asText()).map(PublicKey.class::cast);
                    }
                }
                return Optional.empty();
            };
        }
    }

    public static Result verify(List<String> lines, PublicKey serviceKey, String expectedPreviousHead) {
        return verify(lines, Keys.single(serviceKey), expectedPreviousHead);
    }

    public static Result verify(List<String> lines, Keys serviceKeys, String expectedPreviousHead) {
        List<String> problems = new ArrayList<>();
        if (lines.isEmpty()) {
            return new Result(List.of("the export is empty: no head line"), 0, null);
        }
        JsonNode last = parse(lines.get(lines.size() - 1), lines.size(), problems);
        JsonNode head = last == null ? null : last.get("head");
        if (head == null || !head.isObject()) {
            problems.add("the last line is not a head ({\"head\": ..., \"signature\": ...}): the export is cut short");
            head = null;
        }
        String start = expectedPreviousHead != null ? expectedPreviousHead
                : head != null ? head.path("previous_head").asText(AuditChain.GENESIS) : AuditChain.GENESIS;
        if (head != null && expectedPreviousHead != null
                && !expectedPreviousHead.equals(head.path("previous_head").asText())) {
            problems.add("the head says it continues " + head.path("previous_head").asText() + ", not the expected "
                    + expectedPreviousHead);
        }
        String prev = start;
        long position = -1;
        int eventLines = head == null ? lines.size() : lines.size() - 1;
        for (int i = 0; i < eventLines; i++) {
            int number = i + 1;
            JsonNode line = parse(lines.get(i), number, problems);
            if (line == null) {
                continue;
            }
            if (!prev.equals(line.path("prev").asText())) {
                problems.add("line " + number + ": prev is not the hash of the line before it (a line removed, "
                        + "inserted or moved before it)");
            }
            String hash = AuditChain.hash(line);
            if (!hash.equals(line.path("hash").asText())) {
                problems.add("line " + number + ": its hash does not match its content (the line was changed)");
            }
            long linePosition = line.path("position").asLong(-1);
            if (linePosition <= position) {
                problems.add("line " + number + ": position " + linePosition + " is not after " + position
                        + " (lines out of order)");
            }
            position = Math.max(position, linePosition);
            prev = line.path("hash").asText();
        }
        if (head != null) {
            if (!prev.equals(head.path("hash").asText())) {
                problems.add("the head's hash is not the last line's (lines removed or added at the end)");
            }
            if (head.path("events").asLong(-1) != eventLines) {
                problems.add("the head counts " + head.path("events").asLong(-1) + " lines, the export has "
                        + eventLines);
            }
            String signature = last.path("signature").asText("");
            Optional<PublicKey> serviceKey = serviceKeys.forHead(head.path("key_id").asText());
            if (serviceKey.isEmpty()) {
                problems.add("the head names service key " + head.path("key_id").asText()
                        + ", which the published keys given do not list");
            } else if (!RsaSignatures.verify(serviceKey.get(), AuditChain.canonical(head).getBytes(StandardCharsets.UTF_8),
                    signature)) {
                problems.add("the head is not signed by the service key given (changed, or signed by another key)");
            }
        }
        return new Result(problems, eventLines, head == null ? null : head.path("hash").asText());
    }

    private static JsonNode parse(String text, int number, List<String> problems) {
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || !node.isObject()) {
                problems.add("line " + number + ": not a JSON object");
                return null;
            }
            return node;
        } catch (IOException e) {
            problems.add("line " + number + ": not JSON");
            return null;
        }
    }
}
