package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A partner's webhook endpoint on a real port. Every webhook's {@code X-PARTNER-SIGN} is verified with
 * the service public key (plain JDK); every webhook, valid or not, is recorded for the test to check.
 */
public final class WebhookReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    public record Received(String path, String webhookId, String type, JsonNode session, boolean signatureValid,
                           String rawBody) {
        public String sessionId() {
            return session.path("id").asText();
        }
    }

    private final HttpServer server;
    private final Supplier<String> servicePublicKeyPem;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();

    public WebhookReceiver(Supplier<String> servicePublicKeyPem) {
        this.servicePublicKeyPem = servicePublicKeyPem;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String project = exchange.getRequestURI().getPath().replaceFirst("^/hooks/", "");
            AtomicInteger failures = failuresLeft.get(project);
            if (failures != null && failures.getAndDecrement() > 0) {
                refused.add(exchange.getRequestHeaders().getFirst("X-PARTNER-WEBHOOK-ID"));
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            String signature = exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN");
            JsonNode tree = JSON.readTree(body);
            received.add(new Received(exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("X-PARTNER-WEBHOOK-ID"),
                    tree.path("type").asText(), tree.path("session"), verify(body, signature),
                    new String(body, java.nio.charset.StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    public String url(String project) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/" + project;
    }

    /** The next {@code count} webhooks to {@code project} are answered 503. */
    public void failNext(String project, int count) {
        failuresLeft.put(project, new AtomicInteger(count));
    }

    /** Webhook ids of the attempts answered with a failure. */
    public List<String> refusedIds() {
        return new ArrayList<>(refused);
    }

    public List<Received> all() {
        return new ArrayList<>(received);
    }

    public List<Received> forSession(String sessionId) {
        return received.stream().filter(webhook -> webhook.sessionId().equals(sessionId)).toList();
    }

    /** The first webhook of that type for the session, waiting up to {@code timeout}. */
    public Received await(String sessionId, String type, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            for (Received webhook : received) {
                if (webhook.sessionId().equals(sessionId) && webhook.type().equals(type)) {
                    return webhook;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("no " + type + " webhook for " + sessionId + " within " + timeout
                + "; received: " + forSession(sessionId).stream().map(Received::type).toList());
    }

    private boolean verify(byte[] body, String signature) {
        if (signature == null) {
            return false;
        }
        try {
            String pem = servicePublicKeyPem.get();
            String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            PublicKey key = KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(key);
            verifier.update(body);
            return verifier.verify(Base64.getDecoder().decode(signature));
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
