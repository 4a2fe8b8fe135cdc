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

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads request bodies into JSON trees. Error messages never quote the body (Jackson's source snippets
 * are off), because a body may hold a card number. The body must be strict UTF-8 (RFC 8259): Jackson alone
 * accepts overlong forms (so {@code C0 AF} would read as {@code /}), code points above U+10FFFF and UTF-16,
 * so the bytes are decoded by the JDK's strict decoder first and Jackson reads the characters. A leading
 * byte order mark is ignored, as RFC 8259 allows. Duplicate keys, trailing data, deep nesting and
 * oversized numbers are refused, and so are strings that PostgreSQL's {@code jsonb} or a partner's JSON
 * reader cannot take (a NUL character, an unpaired surrogate) and numbers whose exponent goes beyond
 * what a double holds. An empty body or {@code []} reads as an empty object, as PHP partner SDKs send it.
 */
public final class JsonBodies {

    static final int MAX_NESTING_DEPTH = 32;
    static final int MAX_NUMBER_LENGTH = 32;
    /**
     * Decimal exponents a number may have: beyond any real value, and inside what every reader downstream
     * takes. PostgreSQL's {@code jsonb} writes numbers out in full ({@code 1e999} comes back as 1000 digits,
     * more than Jackson reads by default), and a reader of doubles turns 1e309 into Infinity, which is no JSON.
     * Either would make the session's view unreadable for good.
     */
    static final int MAX_EXPONENT = 300;
    private static final char BYTE_ORDER_MARK = '\uFEFF';
    private static final Pattern LONG_DIGITS = Pattern.compile("[0-9]{12,}");

    private static final ObjectMapper READER = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_NESTING_DEPTH)
                    .maxNumberLength(MAX_NUMBER_LENGTH)
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
        String text = strictUtf8(body);
        if (!text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK) {
            text = text.substring(1);
        }
        JsonNode tree;
        try {
            tree = READER.readTree(text);
        } catch (StreamConstraintsException e) {
            throw PaymentsException.invalidRequest("The body exceeds a JSON limit (nesting depth " + MAX_NESTING_DEPTH
                    + ", numbers of " + MAX_NUMBER_LENGTH + " digits)");
        } catch (JsonProcessingException e) {
            throw PaymentsException.invalidRequest("The body is not valid JSON" + where(e.getLocation())
                    + duplicateField(e));
        } catch (NumberFormatException e) {
            // Jackson lets BigDecimal's own refusal (an exponent beyond an int) through unwrapped
            throw PaymentsException.invalidRequest("The body holds a number out of range");
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
        requireStorable(tree, "");
        return (ObjectNode) tree;
    }

    private static String strictUtf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw PaymentsException.invalidRequest("The body is not valid UTF-8");
        }
    }

    /** Every key and string free of NUL and unpaired surrogates, every number within the exponent range. */
    private static void requireStorable(JsonNode node, String path) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String fieldPath = path.isEmpty() ? quotable(field.getKey()) : path + "." + quotable(field.getKey());
                String problem = problemOf(field.getKey());
                if (problem != null) {
                    throw PaymentsException.invalidRequest("A field name" + (path.isEmpty() ? "" : " in " + path)
                            + " contains " + problem);
                }
                requireStorable(field.getValue(), fieldPath);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                requireStorable(node.get(i), path + "[" + i + "]");
            }
        } else if (node.isTextual()) {
            String problem = problemOf(node.textValue());
            if (problem != null) {
                throw PaymentsException.invalidRequest(path + " contains " + problem);
            }
        } else if (node.isBigDecimal() && !withinExponentRange(node.decimalValue())) {
            throw PaymentsException.invalidRequest(path + " is a number out of range");
        }
    }

    private static boolean withinExponentRange(BigDecimal number) {
        long scale = number.scale();
        long exponent = number.precision() - scale - 1;
        return Math.abs(scale) <= MAX_EXPONENT + MAX_NUMBER_LENGTH
                && (number.signum() == 0 || Math.abs(exponent) <= MAX_EXPONENT);
    }

    private static String problemOf(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return "a NUL character";
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return "an unpaired surrogate (\\u" + Integer.toHexString(c) + ")";
            }
        }
        return null;
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

    /** Jackson's message names the key; a key that looks like a card number is not repeated back. */
    private static String duplicateField(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        return message != null && message.startsWith("Duplicate field") ? ": " + quotable(message) : "";
    }

    /** Text from a body made fit for a refusal: a run of digits long enough to be a card number is not repeated. */
    private static String quotable(String text) {
        return LONG_DIGITS.matcher(text).replaceAll("<digits>");
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
