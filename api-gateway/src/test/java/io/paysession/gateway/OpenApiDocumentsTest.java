package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.paysession.api.error.ErrorCode;
import io.paysession.gateway.openapi.OpenApiDocuments;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.OpenApiContract;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI documents as served (docs/openapi.md): at {@code /openapi/partner.json} and {@code /openapi/admin.json},
 * rendered at {@code /docs} from the jar; every partner and admin route of the service is in them; every reference
 * resolves; and the drift check that validates every exchange of the end-to-end tests refuses what it must.
 */
class OpenApiDocumentsTest extends EndToEndTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    @org.springframework.beans.factory.annotation.Qualifier("requestMappingHandlerMapping")
    private RequestMappingHandlerMapping mappings;

    @Test
    void theDocumentsAreServedAsOpenApi31WithTheirOperations() throws Exception {
        for (String name : List.of("partner", "admin")) {
            Answer answer = get("/openapi/" + name + ".json");
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                    assertThat(type).startsWith("application/json"));
            JsonNode document = JSON.readTree(answer.text());
            assertThat(document.path("openapi").asText()).isEqualTo("3.1.0");
            assertThat(document).as("what the drift check validates against is what is served")
                    .isEqualTo(OpenApiContract.document(name));
            assertThat(answer.text()).as("the source's extensions are expanded").doesNotContain("x-versions",
                    "x-error-codes", "x-common-error-codes", "{V}");
        }
        JsonNode partner = OpenApiContract.document("partner");
        assertThat(partner.at("/paths/~1api~1v1~1session~1init~1payment/post/responses/200/$ref").asText())
                .isEqualTo("#/components/responses/SessionV1");
        assertThat(partner.at("/paths/~1api~1v2~1session~1init~1payment/post/responses/200/$ref").asText())
                .isEqualTo("#/components/responses/SessionV2");
        assertThat(partner.at("/paths/~1api~1v2~1session~1refund/post/responses/400/content/application~1json"
                + "/schema/properties/error/properties/code/enum").toString())
                .contains("\"refund_amount_too_large\"", "\"session_wrong_state\"", "\"idempotency_key_params_mismatch\"");
        assertThat(partner.at("/paths/~1api~1v2~1session~1refund/post/responses/404/content/application~1json"
                + "/schema/properties/error/properties/code/enum").toString())
                .isEqualTo("[\"invalid_request\",\"session_not_found\"]"); // a path on a node without the api role
        assertThat(partner.at("/paths/~1api~1v1~1session~1status/post/responses/413").isMissingNode()).isFalse();
        assertThat(partner.path("webhooks").properties().stream().map(Map.Entry::getKey).toList())
                .containsExactlyInAnyOrder("ready_to_confirm", "action_required", "ready_to_capture",
                        "payment_finished", "payment_refunded");
    }

    @Test
    void everyPartnerAndAdminRouteOfTheServiceIsDocumented() {
        Set<String> undocumented = new TreeSet<>();
        mappings.getHandlerMethods().keySet().forEach((RequestMappingInfo info) -> {
            for (String pattern : info.getPatternValues()) {
                String document = pattern.startsWith("/admin/") ? "admin"
                        : pattern.startsWith("/api/") || pattern.startsWith("/cds/v1/tokenize/")
                        || pattern.startsWith("/sandbox/v1/") ? "partner" : null;
                if (document == null) {
                    continue;
                }
                List<String> paths = pattern.contains("{version}")
                        ? List.of(pattern.replace("{version}", "v1"), pattern.replace("{version}", "v2"))
                        : List.of(pattern);
                Set<String> methods = new HashSet<>();
                info.getMethodsCondition().getMethods().forEach(method -> methods.add(method.name().toLowerCase(Locale.ROOT)));
                for (String path : paths) {
                    JsonNode item = pathItem(OpenApiContract.document(document), path);
                    for (String method : methods) {
                        if (item == null || !item.has(method)) {
                            undocumented.add(method.toUpperCase(Locale.ROOT) + " " + path);
                        }
                    }
                }
            }
        });
        assertThat(undocumented).as("routes of the service missing from /openapi/*.json").isEmpty();
    }

    @Test
    void everyReferenceResolvesAndEveryOperationHasItsOwnId() {
        for (String name : List.of(OpenApiDocuments.PARTNER, OpenApiDocuments.ADMIN)) {
            ObjectNode document = OpenApiContract.document(name);
            List<String> broken = new ArrayList<>();
            Set<String> operationIds = new HashSet<>();
            List<String> repeated = new ArrayList<>();
            walk(document, node -> {
                JsonNode ref = node.get("$ref");
                if (ref != null && (!ref.asText().startsWith("#/") || document.at(ref.asText().substring(1)).isMissingNode())) {
                    broken.add(ref.asText());
                }
            });
            document.path("paths").forEach(item -> item.forEach(operation -> {
                if (operation.has("operationId") && !operationIds.add(operation.get("operationId").asText())) {
                    repeated.add(operation.get("operationId").asText());
                }
            }));
            assertThat(broken).as(name + ": $refs that name nothing").isEmpty();
            List<String> nulls = new ArrayList<>();
            walk(document, node -> node.properties().forEach(member -> {
                if (member.getValue().isNull()) {
                    nulls.add(member.getKey());
                }
            }));
            assertThat(nulls).as(name + ": members without a value (a comma in a YAML flow mapping makes one)").isEmpty();
            assertThat(repeated).as(name + ": operation ids used twice").isEmpty();
            List<String> unknownCodes = new ArrayList<>();
            errorCodeEnums(document).forEach(codes -> codes.get("enum").forEach(code -> {
                try {
                    ErrorCode.fromCode(code.asText());
                } catch (IllegalArgumentException e) {
                    unknownCodes.add(code.asText());
                }
            }));
            assertThat(unknownCodes).as(name + ": error codes that are not the contract's").isEmpty();
            Schema metaSchema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
            List<String> invalid = new ArrayList<>();
            document.path("components").path("schemas").properties().forEach(schema ->
                    metaSchema.validate(schema.getValue()).forEach(error -> invalid.add(schema.getKey() + ": " + error)));
            assertThat(invalid).as(name + ": component schemas that are not JSON Schema 2020-12").isEmpty();
        }
    }

    @Test
    void theReferencePageIsRenderedFromTheJarWithoutAnyOtherOrigin() {
        Answer page = get("/docs");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                assertThat(policy).contains("default-src 'none'", "script-src 'self'", "connect-src 'self'"));
        Matcher assets = Pattern.compile("(?:src|href)=\"([^\"]+)\"").matcher(page.text());
        List<String> loaded = new ArrayList<>();
        while (assets.find()) {
            String asset = assets.group(1);
            assertThat(asset).as("served by the service itself, no CDN").startsWith("/");
            Answer answer = get(asset);
            assertThat(answer.status()).as(asset).isEqualTo(200);
            loaded.add(asset);
        }
        assertThat(loaded).anySatisfy(asset -> assertThat(asset).matches("/webjars/swagger-ui/[0-9.]+/swagger-ui-bundle\\.js"))
                .contains("/docs/reference.js");
        assertThat(get("/docs/reference.js").text()).contains("/openapi/partner.json", "/openapi/admin.json");
    }

    @Test
    void theDriftCheckRefusesUndocumentedFieldsStatusesAndCodes() {
        OpenApiContract.takeViolations();
        URI status = URI.create(baseUrl() + "/api/v2/session/status");
        HttpHeaders json = HttpHeaders.of(Map.of("Content-Type", List.of("application/json")), (a, b) -> true);
        byte[] request = "{\"session_id\":\"ps_1\"}".getBytes(StandardCharsets.UTF_8);
        String session = "{\"status\":\"ok\",\"session\":{\"id\":\"ps_1\",\"status\":\"in_progress\","
                + "\"created_at\":\"2026-11-27T10:00:00.000000Z\",\"updated_at\":\"2026-11-27T10:00:00.000000Z\"%s}}";

        OpenApiContract.checkExchange("POST", status, json, request, 200, json, session.formatted(""));
        assertThat(OpenApiContract.takeViolations()).as("a documented answer").isEmpty();

        OpenApiContract.checkExchange("POST", status, json, request, 200, json, session.formatted(",\"colour\":\"red\""));
        assertThat(OpenApiContract.takeViolations()).as("an undocumented field").singleElement().asString()
                .contains("colour");
        OpenApiContract.checkExchange("POST", status, json, request, 200, json,
                session.formatted(",\"acquiring_payments\":[]"));
        assertThat(OpenApiContract.takeViolations()).as("a v1 name in a v2 answer").singleElement().asString()
                .contains("acquiring_payments");
        OpenApiContract.checkExchange("POST", status, json, request, 202, json, session.formatted(""));
        assertThat(OpenApiContract.takeViolations()).as("an undocumented status").singleElement().asString()
                .contains("status 202 is not documented");
        OpenApiContract.checkExchange("POST", status, json, request, 400, json,
                "{\"status\":\"error\",\"error\":{\"code\":\"refund_amount_too_large\",\"description\":\"x\"}}");
        assertThat(OpenApiContract.takeViolations()).as("an error code the call does not answer").singleElement()
                .asString().contains("refund_amount_too_large");
        OpenApiContract.checkExchange("POST", status, json, "{\"session\":\"ps_1\"}".getBytes(StandardCharsets.UTF_8),
                200, json, session.formatted(""));
        assertThat(OpenApiContract.takeViolations()).as("an accepted request with an undocumented field").isNotEmpty();
        OpenApiContract.checkExchange("POST", status, json, "{\"pan\":\"4242424242424242\"}".getBytes(StandardCharsets.UTF_8),
                200, json, session.formatted(""));
        assertThat(OpenApiContract.takeViolations()).as("a card number in a quoted body is masked").singleElement()
                .asString().contains("424242…4242").doesNotContain("4242424242424242");
        OpenApiContract.checkWebhook("payment_finished", "{\"type\":\"payment_finished\",\"session\":{}}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(OpenApiContract.takeViolations()).as("a webhook without its session's fields").isNotEmpty();
        OpenApiContract.checkExchange("POST", URI.create(baseUrl() + "/api/v1/session/teleport"), json, request, 200,
                json, "{\"status\":\"ok\"}");
        assertThat(OpenApiContract.takeViolations()).as("an undocumented path").singleElement().asString()
                .contains("not in the partner document");

        URI partner = URI.create(baseUrl() + "/admin/v1/partners/shop");
        OpenApiContract.checkExchange("GET", partner, json, new byte[0], 401, json,
                "{\"status\":\"error\",\"error\":{\"code\":\"authentication_error\",\"description\":\"x\"}}");
        assertThat(OpenApiContract.takeViolations()).as("a documented admin refusal").isEmpty();
        OpenApiContract.checkExchange("GET", partner, json, new byte[0], 401, json,
                "{\"status\":\"error\",\"error\":{\"code\":\"session_not_found\",\"description\":\"x\"}}");
        assertThat(OpenApiContract.takeViolations()).as("an admin refusal with another code").singleElement()
                .asString().contains("session_not_found");
        OpenApiContract.checkExchange("GET", URI.create(baseUrl() + "/admin/v1/teleports"), json, new byte[0], 200,
                json, "{\"status\":\"ok\"}");
        assertThat(OpenApiContract.takeViolations()).as("an undocumented admin path").singleElement().asString()
                .contains("not in the admin document");
    }

    private Answer get(String path) {
        return TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET().build());
    }

    private static JsonNode pathItem(JsonNode document, String path) {
        if (document.path("paths").has(path)) {
            return document.path("paths").get(path);
        }
        return null;
    }

    private static List<JsonNode> errorCodeEnums(JsonNode document) {
        List<JsonNode> enums = new ArrayList<>();
        walk(document, node -> {
            JsonNode code = node.path("properties").path("error").path("properties").path("code");
            if (code.has("enum")) {
                enums.add(code);
            }
        });
        return enums;
    }

    private static void walk(JsonNode node, java.util.function.Consumer<JsonNode> visit) {
        if (node.isObject()) {
            visit.accept(node);
        }
        node.forEach(child -> walk(child, visit));
    }
}
