package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.OpenApiContract;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.RequestMutator;
import io.paysession.gateway.support.RequestMutator.Mutated;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of signed requests, each a valid request of one endpoint with one random mutation, sent over real
 * HTTP: none may get a 5xx, every answer is JSON with a request id, every refusal has exactly the documented
 * error shape with a code of the contract, and no refused request leaves an event in the store.
 * <p>
 * A seeded {@link Random} drives it rather than QuickTheories: each example is an HTTP request against a
 * service whose sessions change as the run goes on, so QuickTheories' shrinking would replay smaller examples
 * against a different state and report a misleading minimum; most mutations (a cut, a flipped byte, a
 * duplicated key) are byte operations on the text, not values of a generator. A failure lists each failing
 * request with its mutation and the seed; {@code -Dboundary.seed=<seed>} replays the same mutations and
 * {@code -Dboundary.requests=<n>} sets the number per endpoint.
 */
@OpenApiContract.SendsOddRequests
class MutatedRequestsEndToEndTest extends EndToEndTestBase {

    private static final long SEED = Long.getLong("boundary.seed", System.nanoTime());
    private static final int REQUESTS_PER_ENDPOINT = Integer.getInteger("boundary.requests", 1000);
    private static final Set<String> ERROR_CODES = Set.of("invalid_request", "authentication_error",
            "authorization_error", "session_not_found", "session_wrong_state", "idempotency_key_params_mismatch",
            "idempotency_key_already_exists", "idempotency_key_not_supported", "refund_amount_too_large",
            "capture_amount_too_large", "card_number_does_not_exist", "bank_card_expired", "declined_by_issuer_bank",
            "insufficient_funds", "3DS_error", "provider_timeout", "account_not_found", "confirm_timeout",
            "capture_timeout", "action_timeout", "qr_expired", "session_cancelled", "session_cancelled_by_partner",
            "recurrent_token_inactive", "internal_error", "service_unavailable");
    private static final Pattern REQUEST_ID = Pattern.compile("req_[0-9a-f]{32}");
    /** A card number or anything like one: no refusal may quote it. */
    private static final Pattern LONG_DIGITS = Pattern.compile("[0-9]{12,}");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    private JdbcTemplate jdbc;

    /** One endpoint: who calls it, how, and a valid body (made fresh for each request). */
    private record Endpoint(String name, TestPartner partner, String method, Supplier<String> path,
                            Supplier<JsonNode> validBody) {
    }

    /** What one request was and what came back, for the report. */
    private record Sent(Endpoint endpoint, String path, String mutation, byte[] body, String headerMutation,
                        Answer answer) {
        String describe() {
            return endpoint.name + " " + path + " [" + mutation + (headerMutation == null ? "" : "; " + headerMutation)
                    + "] body " + RequestMutator.preview(new String(body, StandardCharsets.UTF_8)) + " -> " + answer.status()
                    + " " + RequestMutator.preview(answer.text());
        }
    }

    @Test
    void mutatedSignedRequestsToEveryEndpointNeverGetAServerErrorAndLeaveNoEventWhenRefused() {
        System.out.println("MutatedRequestsEndToEndTest seed " + SEED + " (replay with -Dboundary.seed=" + SEED + ")");
        Random random = new Random(SEED);
        TestPartner partner = registeredPartner("mutations");
        TestPartner delayed = registeredPartner("mutations-delayed", "delayed");
        TestPartner other = registeredPartner("mutations-other");
        List<Endpoint> endpoints = endpoints(partner, delayed, random);
        long eventsBefore = maxGlobalIndex();
        RequestMutator mutator = new RequestMutator(random);
        KeyPair strangerKeys = TestPartner.newKeyPair();

        List<String> failures = new ArrayList<>();
        Set<String> refusedRequestIds = new HashSet<>();
        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        int sent = 0;
        long started = System.nanoTime();
        for (int round = 0; round < REQUESTS_PER_ENDPOINT; round++) {
            for (Endpoint endpoint : endpoints) {
                Mutated mutated = mutator.mutate(endpoint.validBody.get());
                String headerMutation = random.nextInt(12) == 0 ? headerMutations()[random.nextInt(headerMutations().length)]
                        : null;
                String path = endpoint.path.get();
                Answer answer = send(endpoint, path, mutated.body(), headerMutation, other, strangerKeys);
                sent++;
                statuses.merge(answer.status(), 1, Integer::sum);
                Sent request = new Sent(endpoint, path, mutated.mutation(), mutated.body(), headerMutation, answer);
                List<String> problems = problems(request);
                problems.forEach(problem -> failures.add(problem + ": " + request.describe()));
                if (answer.status() >= 400) {
                    answer.headers().firstValue("X-Request-Id").ifPresent(refusedRequestIds::add);
                }
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.println("MutatedRequestsEndToEndTest sent " + sent + " requests to " + endpoints.size()
                + " endpoints in " + took.toSeconds() + " s; statuses " + statuses);

        List<String> eventsOfRefusals = requestIdsOfEventsAfter(eventsBefore).stream()
                .filter(refusedRequestIds::contains).toList();
        assertThat(failures).as("seed " + SEED + " (replay with -Dboundary.seed=" + SEED + ")").isEmpty();
        assertThat(eventsOfRefusals).as("events caused by refused requests (seed " + SEED + ")").isEmpty();
        assertThat(refusedRequestIds).as("most mutated requests are refused").hasSizeGreaterThan(sent / 2);
        assertThat(sent).isGreaterThanOrEqualTo(REQUESTS_PER_ENDPOINT * endpoints.size());
    }

    private static String[] headerMutations() {
        return new String[]{"signature garbage", "signature by another key", "project of another partner",
                "unknown project", "no signature", "no project", "content type text/plain",
                "no content type", "content type with charset", "content type latin-1", "idempotency key malformed",
                "idempotency key"};
    }

    private Answer send(Endpoint endpoint, String path, byte[] body, String headerMutation, TestPartner other,
                        KeyPair strangerKeys) {
        TestPartner partner = endpoint.partner;
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("X-PARTNER-PROJECT", partner.project());
        headers.put("X-PARTNER-SIGN", partner.sign(body));
        if (headerMutation != null) {
            switch (headerMutation) {
                case "signature garbage" -> headers.put("X-PARTNER-SIGN", "!!not base64 at all==");
                case "signature by another key" -> headers.put("X-PARTNER-SIGN", TestPartner.sign(strangerKeys, body));
                case "project of another partner" -> headers.put("X-PARTNER-PROJECT", other.project());
                case "unknown project" -> headers.put("X-PARTNER-PROJECT", "never-registered-project");
                case "no signature" -> headers.remove("X-PARTNER-SIGN");
                case "no project" -> headers.remove("X-PARTNER-PROJECT");
                case "content type text/plain" -> headers.put("Content-Type", "text/plain");
                case "no content type" -> headers.remove("Content-Type");
                case "content type with charset" -> headers.put("Content-Type", "application/json; charset=UTF-8");
                case "content type latin-1" -> headers.put("Content-Type", "application/json; charset=iso-8859-1");
                case "idempotency key malformed" -> headers.put("X-PARTNER-IDEMPOTENCY-KEY", "not a key!");
                case "idempotency key" -> headers.put("X-PARTNER-IDEMPOTENCY-KEY", "k-" + Long.toHexString(System.nanoTime()));
                default -> throw new IllegalArgumentException(headerMutation);
            }
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .method(endpoint.method, HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return TestPartner.exchange(request.build());
    }

    /** Everything wrong with one answer; empty when it is as the contract says. */
    private static List<String> problems(Sent request) {
        List<String> problems = new ArrayList<>();
        Answer answer = request.answer;
        if (answer.status() >= 500) {
            problems.add("server error");
        }
        if (!answer.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            problems.add("not JSON");
        }
        if (!answer.headers().firstValue("X-Request-Id").map(id -> REQUEST_ID.matcher(id).matches()).orElse(false)) {
            problems.add("no X-Request-Id");
        }
        JsonNode body = answer.body();
        if (body.isMissingNode() || !body.isObject()) {
            problems.add("body is not a JSON object");
            return problems;
        }
        if (containsNull(body)) {
            problems.add("null in the answer");
        }
        Integer expected = expectedStatus(request);
        if (expected != null && answer.status() != expected) {
            problems.add("expected " + expected);
        }
        String expectedCode = expectedCode(request);
        if (expectedCode != null && !expectedCode.equals(answer.errorCode())) {
            problems.add("expected " + expectedCode);
        }
        if (answer.status() == 200) {
            if (!"ok".equals(body.path("status").asText())) {
                problems.add("200 without status ok");
            }
            return problems;
        }
        List<String> topLevel = names(body);
        JsonNode error = body.path("error");
        if (!topLevel.equals(List.of("status", "error")) || !"error".equals(body.path("status").asText())
                || !error.isObject() || !names(error).equals(List.of("code", "description"))
                || !error.path("code").isTextual() || !error.path("description").isTextual()) {
            problems.add("error body not of the documented shape");
        } else {
            if (!ERROR_CODES.contains(error.path("code").asText())) {
                problems.add("unknown error code");
            }
            if (error.path("description").asText().isBlank()) {
                problems.add("empty description");
            }
            if (LONG_DIGITS.matcher(error.path("description").asText()).find()) {
                problems.add("description quotes a long number");
            }
        }
        return problems;
    }

    /** The status a header mutation must give, after the 64 KiB limit, which answers first. */
    private static Integer expectedStatus(Sent request) {
        if (request.body.length > 64 * 1024) {
            return 413;
        }
        if (request.headerMutation == null) {
            return null;
        }
        return switch (request.headerMutation) {
            case "unknown project", "no project" -> 403;
            case "signature garbage", "signature by another key", "project of another partner", "no signature" -> 401;
            case "content type text/plain", "content type latin-1" -> request.body.length == 0 ? null : 415;
            case "idempotency key malformed" -> 400;
            case "idempotency key" -> takesIdempotencyKey(request.path) ? null : 400;
            default -> null;
        };
    }

    /** The code an idempotency-key mutation must give (decisions.md section 8), when the key decides the answer. */
    private static String expectedCode(Sent request) {
        if (request.body.length > 64 * 1024 || request.headerMutation == null) {
            return null;
        }
        return switch (request.headerMutation) {
            case "idempotency key malformed" -> "invalid_request";
            case "idempotency key" -> takesIdempotencyKey(request.path) ? null : "idempotency_key_not_supported";
            default -> null;
        };
    }

    private static boolean takesIdempotencyKey(String path) {
        return path.matches("/api/v[12]/(session/(create|multi/init|init/payment|init/payout|start/payment|start/payout|confirm"
                + "|cancel|capture|refund)|fps/customer_verification)");
    }

    private static boolean containsNull(JsonNode node) {
        if (node.isNull()) {
            return true;
        }
        for (JsonNode child : node) {
            if (containsNull(child)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> fields = node.fieldNames(); fields.hasNext(); ) {
            names.add(fields.next());
        }
        return names;
    }

    private long maxGlobalIndex() {
        Long max = jdbc.queryForObject("select max(global_index) from domain_event_entry", Long.class);
        return max == null ? -1 : max;
    }

    private List<String> requestIdsOfEventsAfter(long globalIndex) {
        return jdbc.query("select meta_data from domain_event_entry where global_index > ?", (row, index) -> {
            try {
                return JSON.readTree(row.getBytes("meta_data")).path("requestId").asText("");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, globalIndex);
    }

    private List<Endpoint> endpoints(TestPartner partner, TestPartner delayed, Random random) {
        Supplier<String> version = () -> random.nextBoolean() ? "v1" : "v2";
        String created = created(partner);
        String readyToConfirm = readyToConfirm(partner, cardPayment("4242424242424242", "123"));
        String readyToCapture = readyToCapture(delayed);
        String paid = paid(partner, payment(true));
        String recurrentToken = awaitRecurrentToken(partner, paid);
        String cardToken = partner.post("/cds/v1/tokenize/elements", tokenizeBody()).body()
                .at("/data/number/token").asText();
        assertThat(cardToken).startsWith("card_");
        String widgetToken = publicToken(partner);

        List<Endpoint> endpoints = new ArrayList<>();
        endpoints.add(new Endpoint("create", partner, "POST", api(version, "/session/create"), () -> {
            ObjectNode body = payment(false);
            body.remove("customer");
            return body;
        }));
        endpoints.add(new Endpoint("create payout", partner, "POST", api(version, "/session/create"), this::cardPayout));
        endpoints.add(new Endpoint("init payment", partner, "POST", api(version, "/session/init/payment"),
                () -> payment(false)));
        endpoints.add(new Endpoint("start payment", partner, "POST", api(version, "/session/start/payment"),
                () -> payment(false).put("session_id", created)));
        endpoints.add(new Endpoint("init multi", partner, "POST", api(version, "/session/multi/init"), () -> {
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.putArray("payment_list").add(payment(false));
            body.putArray("payout_list").add(cardPayout());
            return body;
        }));
        endpoints.add(new Endpoint("init payout", partner, "POST", api(version, "/session/init/payout"),
                this::cardPayout));
        endpoints.add(new Endpoint("init IBAN payout", partner, "POST", api(version, "/session/init/payout"),
                this::ibanPayout));
        endpoints.add(new Endpoint("start payout", partner, "POST", api(version, "/session/start/payout"),
                () -> cardPayout().put("session_id", created)));
        endpoints.add(new Endpoint("confirm", partner, "POST", api(version, "/session/confirm"),
                () -> sessionRef(readyToConfirm)));
        endpoints.add(new Endpoint("cancel", partner, "POST", api(version, "/session/cancel"),
                () -> sessionRef(readyToConfirm)));
        endpoints.add(new Endpoint("capture", delayed, "POST", api(version, "/session/capture"), () -> {
            ObjectNode body = sessionRef(readyToCapture);
            body.putObject("amount_details").put("amount", 5000).put("currency", "rub");
            return body;
        }));
        endpoints.add(new Endpoint("refund", partner, "POST", api(version, "/session/refund"), () -> {
            ObjectNode body = sessionRef(paid);
            body.putObject("amount_details").put("amount", 10).put("currency", "rub");
            body.putObject("metadata").put("reason", "returned");
            return body;
        }));
        endpoints.add(new Endpoint("wallet balance", partner, "POST", api(version, "/wallet/balance"),
                () -> json("{\"request_datetime\":\"2026-11-27T10:15:30Z\"}")));
        endpoints.add(new Endpoint("chargeback", partner, "POST", api(version, "/session/chargeback"),
                () -> sessionRef(readyToConfirm)));
        endpoints.add(new Endpoint("status", partner, "POST", api(version, "/session/status"),
                () -> sessionRef(readyToConfirm)));
        endpoints.add(new Endpoint("customer verification", partner, "POST", api(version, "/fps/customer_verification"),
                () -> verification(created)));
        endpoints.add(new Endpoint("banks", partner, "GET", api(version, "/fps/banks"),
                JsonNodeFactory.instance::arrayNode));
        endpoints.add(new Endpoint("widget token", partner, "POST", () -> "/api/v1/token",
                () -> json("{\"tokenize_widget\":{\"access\":true,\"locale\":\"en\"}}")));
        endpoints.add(new Endpoint("acquiring widget token", partner, "POST", () -> "/api/v1/token",
                () -> json("{\"acquiring_widget\":{\"session_id\":\"" + created + "\",\"success_return_url\":"
                        + "\"https://shop.example/paid\",\"show_recurrent_checkbox\":true,\"locale\":\"ru\"}}")));
        endpoints.add(new Endpoint("payout widget token", partner, "POST", () -> "/api/v1/token",
                () -> json("{\"fps_no_account_widget\":{\"session_id\":\"" + created + "\",\"locale\":\"en\"}}")));
        endpoints.add(new Endpoint("token info", partner, "POST", () -> "/api/v1/token/info", () -> json(
                "{\"type\":\"card\",\"card\":{\"type\":\"encrypted_card\",\"encrypted_card\":{\"number_hash\":\""
                        + cardToken + "\"}}}")));
        endpoints.add(new Endpoint("recurrent token info", partner, "POST", () -> "/api/v1/token/info", () -> json(
                "{\"type\":\"recurrent_token\",\"recurrent_token\":{\"token\":\"" + recurrentToken + "\"}}")));
        endpoints.add(new Endpoint("public token info", partner, "POST", () -> "/api/v1/token/info", () -> json(
                "{\"type\":\"public_token\",\"public_token\":{\"token\":\"" + widgetToken + "\"}}")));
        endpoints.add(new Endpoint("tokenize", partner, "POST", () -> "/cds/v1/tokenize/elements", this::tokenizeBody));
        endpoints.add(new Endpoint("notification list", partner, "POST", api(version, "/notification/list"),
                () -> json("{\"session_id\":\"" + paid + "\",\"type\":\"payment_finished\",\"state\":\"delivered\","
                        + "\"created_from\":\"2026-01-01T00:00:00Z\",\"order\":\"oldest_first\",\"limit\":5,"
                        + "\"with_body\":true}")));
        endpoints.add(new Endpoint("notification resend", partner, "POST", api(version, "/notification/resend"),
                () -> json("{\"notification_id\":\"00000000-0000-0000-0000-000000000000\"}")));
        endpoints.add(new Endpoint("sberpay push", partner, "POST", api(version, "/sberpay/push"),
                () -> json("{\"phone\":\"79261234567\",\"session_id\":\"" + readyToConfirm + "\"}")));
        endpoints.add(new Endpoint("recurrent status", partner, "POST", api(version, "/recurrent/status"),
                () -> json("{\"recurrent\":{\"token\":\"" + recurrentToken + "\"}}")));
        endpoints.add(new Endpoint("recurrent disable", partner, "POST", api(version, "/recurrent/disable"),
                () -> json("{\"recurrent\":{\"token\":\"" + recurrentToken + "\"}}")));
        return endpoints;
    }

    private static Supplier<String> api(Supplier<String> version, String path) {
        return () -> "/api/" + version.get() + path;
    }

    /** A card payment with every optional part the spec names, so that mutations reach each of them. */
    private static ObjectNode payment(boolean recurrent) {
        ObjectNode body = cardPayment("4242424242424242", "123");
        ObjectNode customer = (ObjectNode) body.get("customer");
        customer.putArray("contacts").addObject().put("email", "payer@example.com").put("phone", "79261234567");
        ObjectNode options = body.putObject("payment_options").put("return_url", "https://shop.example/back")
                .put("description", "Order 42").put("recurrent", recurrent);
        options.putObject("platform_details").put("type", "desktop").put("os", "windows").put("browser", "chrome");
        ObjectNode participants = body.putObject("participant_details");
        participants.putObject("sender").put("ipv4", "203.0.113.7").put("country_iso3", "RUS");
        body.putObject("items").put("sku", "A-1");
        body.putObject("metadata").put("order", "42");
        return body;
    }

    private ObjectNode cardPayout() {
        return json("{\"payment_method\":{\"type\":\"card\",\"card\":{\"type\":\"bank_card\","
                + "\"bank_card\":{\"number\":\"4242424242424242\"}}},"
                + "\"amount_details\":{\"amount\":1000,\"currency\":\"rub\"},"
                + "\"customer\":{\"reference\":\"payee-1\"},"
                + "\"participant_details\":{\"recipient\":{\"full_name\":\"John Doe\"},"
                + "\"sender\":{\"company_name\":\"Shop\",\"country_iso3\":\"GBR\",\"ipv4\":\"198.51.100.1\"}},"
                + "\"metadata\":\"payout 1\"}");
    }

    private ObjectNode ibanPayout() {
        return json("{\"payout_details\":{\"type\":\"bank_account\",\"bank_account\":{\"system_type\":\"global\","
                + "\"global\":{\"iban\":\"DE89370400440532013000\",\"description\":\"rent\"}}},"
                + "\"amount_details\":{\"amount\":\"2500\",\"currency\":\"EUR\"},"
                + "\"participant_details\":{\"recipient\":{\"first_name\":\"Anna\",\"last_name\":\"Schmidt\","
                + "\"bank_name\":\"Bank\",\"currency\":\"eur\",\"country_iso3\":\"DEU\"}}}");
    }

    private ObjectNode verification(String sessionId) {
        ObjectNode body = json("{\"payout_details\":{\"type\":\"bank_account\",\"bank_account\":{"
                + "\"system_type\":\"faster_payment_system_verification\",\"faster_payment_system_verification\":"
                + "{\"phone\":\"79261234567\",\"bank_id\":\"100000000069\"}}},"
                + "\"participant_details\":{\"recipient\":{\"first_name\":\"Ivan\",\"last_name\":\"Ivanov\","
                + "\"middle_name\":\"Ivanovich\"}}}");
        return body.put("session_id", sessionId);
    }

    private ObjectNode tokenizeBody() {
        return json("{\"card_elements\":[{\"ref\":\"number\",\"type\":\"card_number\",\"card_number\":\"4242424242424242\"}]}");
    }

    private String created(TestPartner partner) {
        Answer create = partner.post("/api/v1/session/create", "{}");
        assertThat(create.status()).as(create.toString()).isEqualTo(200);
        return create.session().path("id").asText();
    }

    private String readyToConfirm(TestPartner partner, ObjectNode body) {
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        return sessionId;
    }

    private String readyToCapture(TestPartner delayed) {
        String sessionId = readyToConfirm(delayed, cardPayment("4242424242424242", "123"));
        assertThat(delayed.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
        return sessionId;
    }

    private String paid(TestPartner partner, ObjectNode body) {
        String sessionId = readyToConfirm(partner, body);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
        return sessionId;
    }

    private String awaitRecurrentToken(TestPartner partner, String paidSession) {
        String token = partner.post("/api/v1/session/status", sessionRef(paidSession)).session()
                .at("/acquiring_payments/0/recurrent/token").asText();
        assertThat(token).startsWith("rt_");
        String body = "{\"recurrent\":{\"token\":\"" + token + "\"}}";
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (partner.post("/api/v1/recurrent/status", body).status() != 200) {
            assertThat(System.currentTimeMillis()).as("the token is issued").isLessThan(deadline);
        }
        return token;
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
