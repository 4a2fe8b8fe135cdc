package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.paysession.gateway.openapi.OpenApiDocuments;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * The drift check of the OpenAPI documents (docs/openapi.md): every exchange of the end-to-end tests with the
 * partner API ({@code /api/}, {@code /cds/v1/tokenize/}, {@code /service/public-key}) and the admin API
 * ({@code /admin/}) and every webhook they receive is checked against the documents the service serves, with
 * networknt's JSON Schema validator in the OpenAPI 3.1 dialect:
 * <ul>
 *   <li>the path and method must be documented, unless the service refused the request (the tests of unknown
 *       paths and methods; a refusal of a documented call is checked like any answer);</li>
 *   <li>the answer's status must be documented for the operation, and its body valid against that status's
 *       schema: a field the document does not describe, or an error code it does not list for the call, fails;</li>
 *   <li>a request the service accepted (2xx) must be valid against the request body's schema, and each
 *       {@code X-PARTNER-*} header it carried beyond the signature and project a documented parameter;</li>
 *   <li>a webhook body must be valid against its {@code webhooks} entry.</li>
 * </ul>
 * Violations are gathered here; {@link OpenApiDriftExtension} fails the test during which they happened. With
 * {@code -Dopenapi.drift=report} they are only written to {@code target/openapi-drift.txt}.
 */
public final class OpenApiContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE = "https://paysession.invalid/openapi/";
    private static final Set<String> SIGNATURE_HEADERS = Set.of("x-partner-sign", "x-partner-project");
    private static final Pattern CARD_NUMBER = Pattern.compile("(?<![0-9])([0-9]{6})([0-9]{2,9})([0-9]{4})(?![0-9])");
    private static final List<String> VIOLATIONS = new CopyOnWriteArrayList<>();
    private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

    private static final Map<String, ObjectNode> DOCUMENTS = Map.of(
            OpenApiDocuments.PARTNER, OpenApiDocuments.build(OpenApiDocuments.PARTNER),
            OpenApiDocuments.ADMIN, OpenApiDocuments.build(OpenApiDocuments.ADMIN));
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDialect(Dialects.getOpenApi31(),
            builder -> builder.schemas(Map.of(
                    BASE + "partner.json", DOCUMENTS.get(OpenApiDocuments.PARTNER).toString(),
                    BASE + "admin.json", DOCUMENTS.get(OpenApiDocuments.ADMIN).toString())));

    private static volatile String currentTest = "";
    private static volatile boolean oddRequestsExpected;

    private OpenApiContract() {
    }

    /**
     * On a test class that sends odd requests on purpose (random mutations of valid ones: unknown members, other
     * types, odd text; the contract ignores unknown members): what the service accepted of them is not checked
     * against the request schemas, but every answer and webhook still is, so an odd value it accepted and echoes
     * in a shape the document does not describe still fails.
     */
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE)
    public @interface SendsOddRequests {
    }

    /** Called by {@link OpenApiDriftExtension} as each test starts. */
    static void testStarts(String name, boolean sendsOddRequests) {
        currentTest = name;
        oddRequestsExpected = sendsOddRequests;
    }

    /** The document the service serves at {@code /openapi/{name}.json}. */
    public static ObjectNode document(String name) {
        return DOCUMENTS.get(name);
    }

    /** The violations gathered since the last call, removed. */
    public static List<String> takeViolations() {
        List<String> taken = new ArrayList<>(VIOLATIONS);
        VIOLATIONS.removeAll(taken);
        return taken;
    }

    /** Checks an exchange with the service; {@code requestBody} empty for none. */
    public static void checkExchange(String method, URI uri, HttpHeaders requestHeaders, byte[] requestBody,
                                     int status, HttpHeaders responseHeaders, String responseBody) {
        String path = uri.getPath();
        String name = documentOf(path);
        if (name == null) {
            return;
        }
        String call = method + " " + path + " -> " + status;
        ObjectNode document = DOCUMENTS.get(name);
        Optional<String> template = templateOf(document, path, method.toLowerCase(Locale.ROOT));
        if (template.isEmpty()) {
            if (status < 400) {
                violation(call + ": the path is not in the " + name + " document");
            }
            return;
        }
        String operationPointer = "/paths/" + escape(template.get()) + "/" + method.toLowerCase(Locale.ROOT);
        JsonNode operation = document.at(operationPointer);
        if (operation.isMissingNode()) {
            if (status < 400) {
                violation(call + ": " + method + " is not documented for " + template.get());
            }
            return;
        }
        String responsePointer = operationPointer + "/responses/" + status;
        if (document.at(responsePointer).isMissingNode()) {
            violation(call + ": status " + status + " is not documented; body " + abbreviate(responseBody));
            return;
        }
        responsePointer = followRef(document, responsePointer);
        String contentType = responseHeaders.firstValue("Content-Type").orElse("");
        if (contentType.startsWith("application/json") && !responseBody.isEmpty()) {
            String schemaPointer = responsePointer + "/content/application~1json/schema";
            if (document.at(schemaPointer).isMissingNode()) {
                violation(call + ": the answer is JSON but the document gives it no JSON schema");
            } else {
                validate(name, schemaPointer, responseBody, call + ", answer");
            }
        }
        if (status >= 200 && status < 300 && !oddRequestsExpected) {
            checkAcceptedRequest(name, document, operationPointer, requestHeaders, requestBody, call);
        }
    }

    /** Checks a webhook body as the partner's endpoint received it. */
    public static void checkWebhook(String type, byte[] body) {
        String pointer = "/webhooks/" + escape(type) + "/post";
        ObjectNode document = DOCUMENTS.get(OpenApiDocuments.PARTNER);
        if (document.at(pointer).isMissingNode()) {
            violation("webhook " + type + ": not in the webhooks of the partner document");
            return;
        }
        String bodyPointer = followRef(document, pointer + "/requestBody");
        validate(OpenApiDocuments.PARTNER, bodyPointer + "/content/application~1json/schema",
                new String(body, StandardCharsets.UTF_8), "webhook " + type);
    }

    /** The bytes a body publisher sends (those of the JDK's own publishers can be read again). */
    public static byte[] bytesOf(java.net.http.HttpRequest request) {
        return request.bodyPublisher().map(publisher -> {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
            publisher.subscribe(new java.util.concurrent.Flow.Subscriber<>() {
                @Override
                public void onSubscribe(java.util.concurrent.Flow.Subscription subscription) {
                    subscription.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(ByteBuffer item) {
                    byte[] bytes = new byte[item.remaining()];
                    item.get(bytes);
                    out.writeBytes(bytes);
                }

                @Override
                public void onError(Throwable throwable) {
                    done.completeExceptionally(throwable);
                }

                @Override
                public void onComplete() {
                    done.complete(null);
                }
            });
            done.join();
            return out.toByteArray();
        }).orElse(new byte[0]);
    }

    private static void checkAcceptedRequest(String name, ObjectNode document, String operationPointer,
                                             HttpHeaders requestHeaders, byte[] requestBody, String call) {
        JsonNode operation = document.at(operationPointer);
        for (String header : requestHeaders.map().keySet()) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-partner-") && !SIGNATURE_HEADERS.contains(lower)
                    && !documentsHeader(document, operation, lower)) {
                violation(call + ": the request's header " + header + " is not a parameter of the call");
            }
        }
        if (!operation.has("requestBody")) {
            return;
        }
        String bodyPointer = followRef(document, operationPointer + "/requestBody");
        String schemaPointer = bodyPointer + "/content/application~1json/schema";
        if (document.at(schemaPointer).isMissingNode()) {
            return;
        }
        validate(name, schemaPointer, new String(requestBody, StandardCharsets.UTF_8), call + ", request");
    }

    /**
     * A request as the service reads it (the partner document's "Requests"): {@code null} members absent, {@code []}
     * where an object is expected an empty object, an empty body {@code {}}. Only where the schema expects an
     * object can the tree tell: an empty array in place of an object member is forgiven as the schema's type
     * error it causes.
     */
    private static JsonNode asRead(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JSON.createObjectNode();
            node.properties().forEach(member -> {
                if (!member.getValue().isNull()) {
                    copy.set(member.getKey(), asRead(member.getValue()));
                }
            });
            return copy;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy = JSON.createArrayNode();
            node.forEach(element -> copy.add(asRead(element)));
            return copy;
        }
        return node;
    }

    private static boolean documentsHeader(ObjectNode document, JsonNode operation, String lower) {
        for (JsonNode parameter : operation.path("parameters")) {
            JsonNode resolved = parameter.has("$ref") ? document.at(parameter.get("$ref").asText().substring(1)) : parameter;
            if ("header".equals(resolved.path("in").asText())
                    && lower.equalsIgnoreCase(resolved.path("name").asText())) {
                return true;
            }
        }
        return false;
    }

    private static void validate(String name, String schemaPointer, String text, String what) {
        JsonNode instance;
        try {
            // a UTF-8 byte order mark before the JSON is accepted (and signed like any byte)
            instance = JSON.readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
        } catch (IOException e) {
            violation(what + ": not JSON: " + abbreviate(text));
            return;
        }
        if (what.endsWith(", request")) {
            boolean empty = instance.isMissingNode() || instance.isArray() && instance.isEmpty();
            instance = empty ? JSON.createObjectNode() : asRead(instance);
        }
        Schema schema = SCHEMAS.computeIfAbsent(name + "#" + schemaPointer,
                key -> REGISTRY.getSchema(SchemaLocation.of(BASE + name + ".json#" + schemaPointer)));
        List<Error> errors = schema.validate(instance);
        if (what.endsWith(", request")) {
            // an empty array where an object is expected is read as an empty object
            errors = errors.stream().filter(error -> !("type".equals(error.getKeyword())
                    && error.getInstanceNode() != null && error.getInstanceNode().isArray()
                    && error.getInstanceNode().isEmpty())).toList();
        }
        if (!errors.isEmpty()) {
            violation(what + " does not match " + schemaPointer + ": "
                    + errors.stream().limit(8).map(Error::toString).toList() + "; body " + abbreviate(text));
        }
    }

    /** A pointer whose node is a {@code $ref} (a response, a request body) followed to what it names. */
    private static String followRef(ObjectNode document, String pointer) {
        JsonNode node = document.at(pointer);
        for (int hops = 0; node.has("$ref") && hops < 5; hops++) {
            pointer = node.get("$ref").asText().substring(1);
            node = document.at(pointer);
        }
        return pointer;
    }

    private static String documentOf(String path) {
        if (path.startsWith("/admin/")) {
            return OpenApiDocuments.ADMIN;
        }
        if (path.startsWith("/api/") || path.startsWith("/cds/v1/tokenize/") || path.startsWith("/sandbox/v1/")
                || path.equals("/service/public-key")) {
            return OpenApiDocuments.PARTNER;
        }
        return null;
    }

    /** The path item of {@code path}: itself, else the template with the method, fewest parameters first. */
    private static Optional<String> templateOf(ObjectNode document, String path, String method) {
        if (document.path("paths").has(path)) {
            return Optional.of(path);
        }
        List<String> templates = new ArrayList<>();
        document.path("paths").fieldNames().forEachRemaining(templates::add);
        return templates.stream().filter(template -> template.contains("{"))
                .filter(template -> Pattern.compile(Pattern.quote(template).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q"))
                        .matcher(path).matches())
                .sorted(java.util.Comparator.<String, Boolean>comparing(
                                template -> !document.path("paths").path(template).has(method))
                        .thenComparing(template -> template.chars().filter(c -> c == '{').count()))
                .findFirst();
    }

    private static String escape(String segment) {
        return segment.replace("~", "~0").replace("/", "~1");
    }

    private static String abbreviate(String text) {
        return text.length() <= 600 ? text : text.substring(0, 600) + "...";
    }

    private static void violation(String text) {
        // bodies are quoted in the message: a card number in one (the tests' cards) is masked as everywhere
        text = "[" + currentTest + "] " + CARD_NUMBER.matcher(text).replaceAll(found ->
                found.group(1) + "…" + found.group(3));
        VIOLATIONS.add(text);
        if ("report".equals(System.getProperty("openapi.drift"))) {
            try {
                Path report = Path.of("target", "openapi-drift.txt");
                Files.writeString(report, text + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
