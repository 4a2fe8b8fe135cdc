package io.paysession.gateway.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads request bodies into JSON trees. Error messages never quote the body (Jackson's source snippets
 * are off), because a body may hold a card number. Duplicate keys, trailing data, deep nesting and
 * oversized numbers are refused. An empty body or {@code []} reads as an empty object, as PHP partner
 * SDKs send it.
 */
public final class JsonBodies {

    private static final ObjectMapper READER = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(32)
                    .maxNumberLength(32)
                    .maxStringLength(64 * 1024)
                    .build())
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    private JsonBodies() {
    }

    public static ObjectNode readObject(byte[] body) {
        if (body == null || isBlank(body)) {
            return JsonNodeFactory.instance.objectNode();
        }
        JsonNode tree;
        try {
            tree = READER.readTree(body);
        } catch (StreamConstraintsException e) {
            throw PaymentsException.invalidRequest("The body exceeds a JSON limit (nesting depth 32, numbers of 32 digits)");
        } catch (JsonProcessingException e) {
            throw PaymentsException.invalidRequest("The body is not valid JSON" + where(e.getLocation())
                    + duplicateField(e));
        } catch (IOException e) {
            throw PaymentsException.invalidRequest("The body cannot be read as UTF-8 JSON");
        }
        if (tree == null || tree.isMissingNode()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (tree.isArray() && tree.isEmpty()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!tree.isObject()) {
            throw PaymentsException.invalidRequest("The body must be a JSON object");
        }
        return (ObjectNode) tree;
    }

    /** A copy without {@code null} members or elements: partner data is echoed, and responses never carry null. */
    public static JsonNode withoutNulls(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getValue().isNull()) {
                    copy.set(field.getKey(), withoutNulls(field.getValue()));
                }
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> {
                if (!element.isNull()) {
                    copy.add(withoutNulls(element));
                }
            });
            return copy;
        }
        return node;
    }

    private static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    private static String duplicateField(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        return message != null && message.startsWith("Duplicate field") ? ": " + message : "";
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }
}
