package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A partner's webhook endpoint on a real port. Every webhook's {@code X-PARTNER-SIGN} is verified with
 * the service public key (plain JDK); every webhook, valid or not, is recorded for the test to check.
 * Each project answers by its {@link Behaviour}: 200 at once unless told otherwise (fail the first
 * attempts, answer late, hang, answer 500 forever).
 */
public final class WebhookReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A webhook the receiver accepted (answered 2xx), listed in the order of acceptance; {@code arrival}
     * is its request's {@link Request#order()}.
     */
    public record Received(String path, String webhookId, String type, JsonNode session, boolean signatureValid,
                           String rawBody, int arrival, Instant receivedAt, String signature, String signatureKeyId) {
        public String sessionId() {
            return session.path("id").asText();
        }
    }

    /**
     * Any request, answered or not yet: {@code order} counts arrivals across the receiver, {@code attempt}
     * counts the requests carrying this webhook id so far (1 for the first).
     */
    public record Request(int order, String project, String webhookId, String type, String sessionId,
                          boolean signatureValid, int attempt, Instant receivedAt) {
    }

    /** How to answer a request: a status, after a delay (ended early when the receiver closes). */
    public record Reply(int status, Duration delay) {
        public static Reply now(int status) {
            return new Reply(status, Duration.ZERO);
        }
    }

    @FunctionalInterface
    public interface Behaviour {
        Reply reply(Request request);

        /** Fails the first {@code failures} attempts of every webhook with {@code status}, then accepts. */
        static Behaviour failFirst(int failures, int status) {
            return request -> Reply.now(request.attempt() <= failures ? status : 200);
        }

        /** Answers the first attempt of every webhook only after {@code delay}, the next ones at once. */
        static Behaviour slowFirst(Duration delay) {
            return request -> request.attempt() == 1 ? new Reply(200, delay) : Reply.now(200);
        }

        /** Never answers while the receiver is open. */
        static Behaviour hang() {
            return request -> new Reply(200, Duration.ofMinutes(5));
        }

        static Behaviour always(int status) {
            return request -> Reply.now(status);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "webhook-receiver");
        thread.setDaemon(true);
        return thread;
    });
    private final Function<String, Optional<String>> servicePublicKeyPem;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> attemptsById = new ConcurrentHashMap<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();
    private final AtomicInteger arrivals = new AtomicInteger();
    private final CountDownLatch closing = new CountDownLatch(1);

    public WebhookReceiver(Supplier<String> servicePublicKeyPem) {
        this(servicePublicKeyPem, 0);
    }

    /** On a given port: a partner whose endpoint was down comes up where the service expects it. */
    public WebhookReceiver(Supplier<String> servicePublicKeyPem, int port) {
        this(keyId -> Optional.ofNullable(servicePublicKeyPem.get()), port);
    }

    /**
     * Verifying each webhook as a partner following key rotations does: with the published key (PEM) the webhook's
     * {@code X-PARTNER-SIGN-KEY-ID} names, empty when none is published under that id.
     */
    public WebhookReceiver(Function<String, Optional<String>> publishedKeyById, int port) {
        this.servicePublicKeyPem = publishedKeyById;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A port nothing listens on now: the endpoint of a partner that is down. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String url(int port, String project) {
        return "http://127.0.0.1:" + port + "/hooks/" + project;
    }

    public String url(String project) {
        return url(server.getAddress().getPort(), project);
    }

    /** The next {@code count} webhooks to {@code project} are answered 503. */
    public void failNext(String project, int count) {
        failuresLeft.put(project, new AtomicInteger(count));
    }

    public void behave(String project, Behaviour behaviour) {
        behaviours.put(project, behaviour);
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

    /** Every request so far, answered or not, in arrival order. */
    public List<Request> requests() {
        return new ArrayList<>(requests);
    }

    public List<Request> requestsFor(String project) {
        return requests.stream().filter(request -> request.project().equals(project)).toList();
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

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            String project = path.replaceFirst("^/hooks/", "");
            String webhookId = exchange.getRequestHeaders().getFirst("X-PARTNER-WEBHOOK-ID");
            String keyId = exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN-KEY-ID");
            String signature = exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN");
            boolean signatureValid = keyId != null && verify(body, signature, keyId);
            JsonNode tree = JSON.readTree(body);
            OpenApiContract.checkWebhook(tree.path("type").asText(), body);
            Request request = new Request(arrivals.getAndIncrement(), project, webhookId, tree.path("type").asText(),
                    tree.path("session").path("id").asText(), signatureValid,
                    attemptsById.computeIfAbsent(String.valueOf(webhookId), id -> new AtomicInteger()).incrementAndGet(),
                    Instant.now());
            requests.add(request);

            Reply reply = replyTo(request);
            if (!reply.delay().isZero() && closing.await(reply.delay().toMillis(), TimeUnit.MILLISECONDS)) {
                return; // closed while hanging: no answer at all
            }
            if (reply.status() < 200 || reply.status() > 299) {
                refused.add(webhookId);
                exchange.sendResponseHeaders(reply.status(), -1);
                return;
            }
            synchronized (received) {
                received.add(new Received(path, webhookId, request.type(), tree.path("session"), signatureValid,
                        new String(body, StandardCharsets.UTF_8), request.order(), Instant.now(), signature,
                        keyId));
            }
            exchange.sendResponseHeaders(reply.status(), -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Reply replyTo(Request request) {
        AtomicInteger failures = failuresLeft.get(request.project());
        if (failures != null && failures.getAndDecrement() > 0) {
            return Reply.now(503);
        }
        Behaviour behaviour = behaviours.get(request.project());
        return behaviour == null ? Reply.now(200) : behaviour.reply(request);
    }

    private boolean verify(byte[] body, String signature, String keyId) {
        if (signature == null) {
            return false;
        }
        try {
            Optional<String> published = servicePublicKeyPem.apply(keyId);
            if (published.isEmpty()) {
                return false;
            }
            String pem = published.get();
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
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
