package io.paysession.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * The partners' webhook endpoint on loopback. Every webhook's {@code X-PARTNER-SIGN} is verified with the
 * service public key; webhooks are handed to the lifecycle waiting for them by session id, whichever
 * arrives first (a fast rail can send {@code ready_to_confirm} before the init response is read).
 */
final class WebhookReceiver implements AutoCloseable {

    static final String READY_TO_CONFIRM = "ready_to_confirm";
    static final String PAYMENT_FINISHED = "payment_finished";

    /** One received webhook: what the lifecycle needs to check it, never its body. */
    record Webhook(String type, String sessionStatus, boolean signatureValid, long receivedAtNanos) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final String host;
    private final ExecutorService threads;
    private static final SessionWebhooks FINISHED = new SessionWebhooks();
    private final Map<String, SessionWebhooks> sessions = new ConcurrentHashMap<>();
    private volatile PublicKey serviceKey;

    final LongAdder received = new LongAdder();
    final LongAdder invalidSignatures = new LongAdder();
    final LongAdder duplicates = new LongAdder();
    final LongAdder unexpected = new LongAdder();
    final LongAdder unreadable = new LongAdder();

    private static final class SessionWebhooks {
        final CompletableFuture<Webhook> readyToConfirm = new CompletableFuture<>();
        final CompletableFuture<Webhook> paymentFinished = new CompletableFuture<>();
    }

    WebhookReceiver(int threadCount) {
        this(threadCount, Optional.empty());
    }

    /**
     * A receiver the service reaches at {@code host} (a service in containers reaches this machine by
     * {@code host.docker.internal}, say): it then listens on every interface; without a host, on loopback only.
     */
    WebhookReceiver(int threadCount, Optional<String> host) {
        this.host = host.orElse("127.0.0.1");
        try {
            server = HttpServer.create(new InetSocketAddress(host.isPresent() ? "0.0.0.0" : "127.0.0.1", 0), 512);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        threads = Executors.newFixedThreadPool(threadCount, runnable -> {
            Thread thread = new Thread(runnable, "webhook-receiver");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(threads);
        server.createContext("/hooks/", this::handle);
        server.start();
    }

    void trustServiceKey(String pem) {
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        try {
            serviceKey = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (Exception e) {
            throw new IllegalStateException("the service public key is not an RSA key in PEM", e);
        }
    }

    String url(String project) {
        return "http://" + host + ":" + server.getAddress().getPort() + "/hooks/" + project;
    }

    CompletableFuture<Webhook> readyToConfirm(String sessionId) {
        return of(sessionId).readyToConfirm;
    }

    CompletableFuture<Webhook> paymentFinished(String sessionId) {
        return of(sessionId).paymentFinished;
    }

    /** The lifecycle is over: a webhook for it from now on is a duplicate (one entry per session, for a bounded run). */
    void forget(String sessionId) {
        sessions.put(sessionId, FINISHED);
    }

    private SessionWebhooks of(String sessionId) {
        return sessions.computeIfAbsent(sessionId, id -> new SessionWebhooks());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            long receivedAt = System.nanoTime();
            received.increment();
            boolean valid = verify(body, exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN"));
            if (!valid) {
                invalidSignatures.increment();
            }
            JsonNode tree;
            try {
                tree = JSON.readTree(body);
            } catch (IOException e) {
                unreadable.increment();
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            String type = tree.path("type").asText();
            String sessionId = tree.path("session").path("id").asText();
            Webhook webhook = new Webhook(type, tree.path("session").path("status").asText(), valid, receivedAt);
            // answered before it is handed on, so the service's send time does not include our bookkeeping
            exchange.sendResponseHeaders(200, -1);
            SessionWebhooks session = of(sessionId);
            CompletableFuture<Webhook> waiting = switch (type) {
                case READY_TO_CONFIRM -> session.readyToConfirm;
                case PAYMENT_FINISHED -> session.paymentFinished;
                default -> null;
            };
            if (session == FINISHED) {
                duplicates.increment();
            } else if (waiting == null) {
                unexpected.increment();
            } else if (!waiting.complete(webhook)) {
                duplicates.increment();
            }
        }
    }

    private boolean verify(byte[] body, String signature) {
        if (signature == null || serviceKey == null) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(serviceKey);
            verifier.update(body);
            return verifier.verify(Base64.getDecoder().decode(signature));
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
