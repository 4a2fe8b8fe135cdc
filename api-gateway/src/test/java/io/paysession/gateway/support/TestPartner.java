package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A partner as its SDK behaves: its own RSA key pair, every request signed over the exact body bytes
 * with SHA256withRSA (plain JDK, independent of the service's code), JSON in and out.
 */
public final class TestPartner {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String project;
    private final KeyPair keys;
    private String baseUrl;

    public TestPartner(String project) {
        this(project, newKeyPair());
    }

    private TestPartner(String project, KeyPair keys) {
        this.project = project;
        this.keys = keys;
    }

    /** A partner whose key pair was made elsewhere (a preload's partner, say). */
    public static TestPartner withKeys(String project, KeyPair keys) {
        return new TestPartner(project, keys);
    }

    /** The same partner (project and key pair) talking to the service at another address, another node say. */
    public TestPartner sameKeysAt(String baseUrl) {
        return new TestPartner(project, keys).at(baseUrl);
    }

    public static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public TestPartner at(String baseUrl) {
        this.baseUrl = baseUrl;
        return this;
    }

    public String project() {
        return project;
    }

    public KeyPair keys() {
        return keys;
    }

    public String publicKeyPem() {
        return pem("PUBLIC KEY", keys.getPublic().getEncoded());
    }

    public String privateKeyPem() {
        return pem("PRIVATE KEY", keys.getPrivate().getEncoded());
    }

    public static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    public String sign(byte[] body) {
        return sign(keys, body);
    }

    public static String sign(KeyPair keys, byte[] body) {
        try {
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(keys.getPrivate());
            signature.update(body);
            return Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A correctly signed request. */
    public Answer post(String path, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return send(path, body, Map.of("X-PARTNER-PROJECT", project, "X-PARTNER-SIGN", sign(body)));
    }

    /** A correctly signed request with {@code X-PARTNER-IDEMPOTENCY-KEY}. */
    public Answer post(String path, String json, String idempotencyKey) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return send(path, body, Map.of("X-PARTNER-PROJECT", project, "X-PARTNER-SIGN", sign(body),
                "X-PARTNER-IDEMPOTENCY-KEY", idempotencyKey));
    }

    public Answer post(String path, JsonNode json) {
        try {
            return post(path, JSON.writeValueAsString(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request with exactly these headers (for refusals of bad signatures). */
    public Answer send(String path, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        new LinkedHashMap<>(headers).forEach(request::header);
        return exchange(request.build());
    }

    public static Answer exchange(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body;
            try {
                body = response.body().isBlank() ? JSON.missingNode() : JSON.readTree(response.body());
            } catch (IOException e) {
                body = JSON.missingNode();
            }
            OpenApiContract.checkExchange(request.method(), request.uri(), request.headers(),
                    OpenApiContract.bytesOf(request), response.statusCode(), response.headers(), response.body());
            return new Answer(response.statusCode(), body, response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
