package io.paysession.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Optional;

/** The service over HTTP, as the partner: requests signed over their exact bytes, and the service's public key. */
final class ServiceApi {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** An answer: its status, its exact bytes, and how long it took. */
    record Answer(int status, byte[] body, long millis) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The body as JSON; a body that is not JSON is a missing node. */
        JsonNode json() {
            try {
                return body.length == 0 ? JSON.missingNode() : JSON.readTree(body);
            } catch (IOException e) {
                return JSON.missingNode();
            }
        }

        boolean ok() {
            return status / 100 == 2;
        }

        String errorCode() {
            return json().path("error").path("code").asText("");
        }
    }

    private final HttpClient http;
    private final String baseUrl;

    ServiceApi(HttpClient http, String baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl;
    }

    String baseUrl() {
        return baseUrl;
    }

    /** {@code path} with the exact {@code body}, signed by the partner's key; the idempotency key when given. */
    Answer post(String path, byte[] body, String project, PrivateKey key, Optional<String> idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .header("X-PARTNER-PROJECT", project)
                .header("X-PARTNER-SIGN", Keys.sign(key, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        idempotencyKey.ifPresent(value -> request.header("X-PARTNER-IDEMPOTENCY-KEY", value));
        return send(request.build(), baseUrl);
    }

    /** The key the service signs its webhooks with ({@code GET /service/public-key}), in PEM. */
    String servicePublicKey() {
        Answer answer = send(HttpRequest.newBuilder(URI.create(baseUrl + "/service/public-key")).timeout(TIMEOUT)
                .GET().build(), baseUrl);
        if (answer.status() != 200 || !answer.text().contains("PUBLIC KEY")) {
            throw new CliException(baseUrl + " answered HTTP " + answer.status() + " to GET /service/public-key: "
                    + "is it the payment session service?");
        }
        return answer.text();
    }

    /** The published service key of id {@code keyId} ({@code GET /service/public-keys}), in PEM; empty when none. */
    Optional<String> publishedServiceKey(String keyId) {
        Answer answer = send(HttpRequest.newBuilder(URI.create(baseUrl + "/service/public-keys")).timeout(TIMEOUT)
                .GET().build(), baseUrl);
        JsonNode keys;
        try {
            keys = answer.status() == 200 ? JSON.readTree(answer.body()).path("keys") : null;
        } catch (IOException e) {
            keys = null;
        }
        if (keys == null || !keys.isArray()) {
            throw new CliException(baseUrl + " answered HTTP " + answer.status() + " to GET /service/public-keys: "
                    + "is it the payment session service?");
        }
        for (JsonNode key : keys) {
            if (key.path("key_id").asText().equals(keyId)) {
                return Optional.of(key.path("public_key").asText());
            }
        }
        return Optional.empty();
    }

    /** Any request; a service that does not answer is a {@link CliException} naming {@code where}. */
    Answer send(HttpRequest request, String where) {
        long started = System.nanoTime();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response.body(), (System.nanoTime() - started) / 1_000_000);
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new CliException(where + " does not answer (" + describe(e) + ")", e);
        } catch (HttpTimeoutException e) {
            throw new CliException(where + " did not answer within " + TIMEOUT.toSeconds() + " s", e);
        } catch (IOException e) {
            throw new CliException("the exchange with " + where + " failed (" + describe(e) + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted", e);
        }
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        if (message == null && e.getCause() != null) {
            message = e.getCause().getMessage();
        }
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
