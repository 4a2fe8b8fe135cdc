package io.paysession.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The hash chain of an audit export (docs/audit.md, "An export an auditor can prove"): each line is a JSON object
 * with {@code prev}, the hash of the line before it (or the head of the export before, or 64 zeros), and
 * {@code hash}, the SHA-256 of the line's canonical form: the object without {@code hash}, members sorted by name,
 * no whitespace. Lines hold only strings and integers (an event's payload is its JSON as a string), so the
 * canonical form is the same in any language's JSON writer that sorts members and escapes strings minimally.
 */
public final class AuditChain {

    /** The {@code prev} of the first line of a chain that continues no earlier export. */
    public static final String GENESIS = "0".repeat(64);

    private static final ObjectMapper JSON = new ObjectMapper();

    private AuditChain() {
    }

    /** {@code line} with {@code prev} set and its {@code hash} added; the line's text, one JSON line. */
    public static String link(ObjectNode line, String prev) {
        line.remove("hash");
        line.put("prev", prev);
        line.put("hash", hash(line));
        return write(line);
    }

    /** The SHA-256 (hex) of the canonical form of {@code line} without its {@code hash}. */
    public static String hash(JsonNode line) {
        JsonNode withoutHash = line.deepCopy();
        if (withoutHash instanceof ObjectNode object) {
            object.remove("hash");
        }
        return sha256(canonical(withoutHash));
    }

    /** Members sorted by name at every level, no whitespace. */
    public static String canonical(JsonNode node) {
        return write(sorted(node));
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (String name : names) {
                copy.set(name, sorted(node.get(name)));
            }
            return copy;
        }
        if (node.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> copy.add(sorted(element)));
            return copy;
        }
        return node;
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
