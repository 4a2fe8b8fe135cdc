package io.paysession.gateway.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.paysession.api.error.ErrorCode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The OpenAPI 3.1 documents of the service (docs/openapi.md), built from the hand-written YAML in
 * {@code openapi/*.yaml} by two mechanical expansions, so that what the source says once is said once:
 * <ul>
 *   <li>a path item with {@code x-versions: [v1, v2]} and {@code {version}} in its path becomes one path item per
 *       version; in each copy {@code {V}} in a {@code $ref} becomes {@code V1} or {@code V2} (the schemas whose
 *       names differ between versions) and the operation id gets the version as a suffix;</li>
 *   <li>an operation's {@code x-error-codes} (plus the document's {@code x-common-error-codes} unless the
 *       operation says {@code x-common-error-codes: false}) becomes one response per HTTP status, the status of
 *       each code taken from {@link ErrorCode} itself ({@code code@status} where a call answers a code with another
 *       status), each response's schema the error body with exactly those codes. A call with a body may also answer
 *       413 {@code invalid_request} (the 64 KiB limit of every body).</li>
 * </ul>
 * The result is plain OpenAPI 3.1: the extensions are removed.
 */
public final class OpenApiDocuments {

    public static final String PARTNER = "partner";
    public static final String ADMIN = "admin";

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    private OpenApiDocuments() {
    }

    /** The document {@code name} ({@link #PARTNER} or {@link #ADMIN}) as served. */
    public static ObjectNode build(String name) {
        ObjectNode source = read(name);
        Set<String> common = new LinkedHashSet<>();
        source.path("x-common-error-codes").forEach(code -> common.add(code.asText()));
        source.remove("x-common-error-codes");
        ObjectNode paths = JsonNodeFactory.instance.objectNode();
        source.path("paths").properties().forEach(entry -> {
            ObjectNode item = (ObjectNode) entry.getValue();
            JsonNode versions = item.remove("x-versions");
            if (versions == null) {
                paths.set(entry.getKey(), expandErrors(item, common));
                return;
            }
            if (!entry.getKey().contains("{version}")) {
                throw new IllegalStateException(entry.getKey() + ": x-versions on a path without {version}");
            }
            for (JsonNode version : versions) {
                String v = version.asText();
                ObjectNode copy = substitute(item.deepCopy(), v.toUpperCase());
                copy.properties().forEach(operation -> {
                    if (operation.getValue() instanceof ObjectNode op && op.has("operationId")) {
                        op.put("operationId", op.get("operationId").asText() + v.toUpperCase());
                    }
                });
                paths.set(entry.getKey().replace("{version}", v), expandErrors(copy, common));
            }
        });
        source.set("paths", paths);
        return source;
    }

    /** {@link #build} as JSON text. */
    public static String json(String name) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(build(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode read(String name) {
        try (InputStream in = OpenApiDocuments.class.getResourceAsStream("/openapi/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no OpenAPI document " + name);
            }
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code {V}} in every {@code $ref} of {@code node} replaced by {@code version}. */
    private static ObjectNode substitute(ObjectNode node, String version) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        for (String field : names) {
            JsonNode value = node.get(field);
            if (field.equals("$ref") && value.isTextual()) {
                node.set(field, TextNode.valueOf(value.asText().replace("{V}", version)));
            } else if (value instanceof ObjectNode object) {
                substitute(object, version);
            } else if (value instanceof ArrayNode array) {
                for (JsonNode element : array) {
                    if (element instanceof ObjectNode object) {
                        substitute(object, version);
                    }
                }
            }
        }
        return node;
    }

    private static ObjectNode expandErrors(ObjectNode item, Set<String> common) {
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (!(entry.getValue() instanceof ObjectNode operation) || !operation.has("responses")) {
                continue;
            }
            Set<String> codes = new LinkedHashSet<>();
            JsonNode useCommon = operation.remove("x-common-error-codes");
            if (useCommon == null || useCommon.asBoolean(true)) {
                codes.addAll(common);
            }
            JsonNode own = operation.remove("x-error-codes");
            if (own != null) {
                own.forEach(code -> codes.add(code.asText()));
            }
            if (codes.isEmpty()) {
                continue;
            }
            Map<Integer, Set<String>> byStatus = new TreeMap<>();
            for (String code : codes) {
                int at = code.indexOf('@');
                String wire = at < 0 ? code : code.substring(0, at);
                int status = at < 0 ? ErrorCode.fromCode(wire).httpStatus() : Integer.parseInt(code.substring(at + 1));
                byStatus.computeIfAbsent(status, s -> new LinkedHashSet<>()).add(wire);
            }
            if (operation.has("requestBody") && codes.contains("invalid_request")) {
                byStatus.computeIfAbsent(413, s -> new LinkedHashSet<>()).add("invalid_request");
            }
            ObjectNode responses = (ObjectNode) operation.get("responses");
            byStatus.forEach((status, wireCodes) -> {
                if (responses.has(String.valueOf(status))) {
                    throw new IllegalStateException(operation.path("operationId").asText()
                            + ": response " + status + " written by hand and by x-error-codes");
                }
                responses.set(String.valueOf(status), errorResponse(status, wireCodes));
            });
        }
        return item;
    }

    private static ObjectNode errorResponse(int status, Set<String> codes) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        response.put("description", (status == 413 ? "The body is over 64 KiB: " : "Refused: ")
                + String.join(", ", codes.stream().map(code -> "`" + code + "`").toList()));
        ObjectNode schema = response.putObject("content").putObject("application/json").putObject("schema");
        schema.put("type", "object");
        schema.putArray("required").add("status").add("error");
        schema.put("unevaluatedProperties", false);
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("status").put("const", "error");
        ObjectNode error = properties.putObject("error");
        error.put("type", "object");
        error.putArray("required").add("code").add("description");
        error.put("unevaluatedProperties", false);
        ObjectNode errorProperties = error.putObject("properties");
        ArrayNode values = errorProperties.putObject("code").putArray("enum");
        codes.forEach(values::add);
        errorProperties.putObject("description").put("type", "string")
                .put("description", "What was wrong, for a person to read; never parse it.");
        return response;
    }
}
