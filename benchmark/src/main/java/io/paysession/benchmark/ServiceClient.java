package io.paysession.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** HTTP to the service: partner requests signed by their partner, and the admin API. */
final class ServiceClient {

    /** The status and parsed JSON of an answer; a body that is not JSON is a missing node. */
    record Answer(int status, JsonNode body) {
        String errorCode() {
            return body.path("error").path("code").asText("");
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http;
    private final String baseUrl;
    private final List<String> nodes;
    private final AtomicInteger turn = new AtomicInteger();
    private final String adminToken;

    ServiceClient(HttpClient http, String baseUrl, String adminToken) {
        this(http, List.of(baseUrl), adminToken);
    }

    /** Partner requests go to {@code nodes} in turn, as a load balancer sends them; the admin API to the first. */
    ServiceClient(HttpClient http, List<String> nodes, String adminToken) {
        this.http = http;
        this.baseUrl = nodes.get(0);
        this.nodes = List.copyOf(nodes);
        this.adminToken = adminToken;
    }

    static HttpClient newHttpClient() {
        // HTTP/1.1 as partner SDKs use it; the default would try an h2c upgrade on every new connection
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** A partner request, signed over exactly the bytes that are sent. */
    Answer post(Partner partner, String path, byte[] body) throws IOException, InterruptedException {
        String node = nodes.get(Math.floorMod(turn.getAndIncrement(), nodes.size()));
        HttpRequest request = HttpRequest.newBuilder(URI.create(node + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("X-PARTNER-PROJECT", partner.project())
                .header("X-PARTNER-SIGN", partner.sign(body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        return exchange(request);
    }

    /**
     * The service key a node publishes ({@code GET /service/public-key}), in PEM; a node that does not answer it is
     * a clear error, not a run of failures.
     */
    String servicePublicKey(String node) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(node + "/service/public-key"))
                .timeout(REQUEST_TIMEOUT).GET().build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the service at " + node + " does not answer: " + e, e);
        }
        if (response.statusCode() != 200 || !response.body().contains("BEGIN PUBLIC KEY")) {
            throw new IllegalStateException("the service at " + node + " answered HTTP " + response.statusCode()
                    + " to GET /service/public-key: is it the payment session service?");
        }
        return response.body();
    }

    /** Registers the partner (decisions.md section 3), its webhooks going to {@code webhookUrl}. */
    void register(Partner partner, String webhookUrl) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", webhookUrl)
                .put("capture_mode", "auto");
        body.putObject("fees").put("percent_bp", 250).put("fixed", 30);
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/admin/v1/partners"))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + adminToken)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
        Answer answer = exchange(request);
        if (answer.status() != 201) {
            throw new IllegalStateException("registering partner " + partner.project() + " answered HTTP "
                    + answer.status() + " " + answer.errorCode());
        }
    }

    private Answer exchange(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        JsonNode body;
        try {
            body = response.body().length == 0 ? JSON.missingNode() : JSON.readTree(response.body());
        } catch (IOException e) {
            body = JSON.missingNode();
        }
        return new Answer(response.statusCode(), body);
    }
}
