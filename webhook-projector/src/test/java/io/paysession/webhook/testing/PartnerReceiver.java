package io.paysession.webhook.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Partners' webhook endpoints on one real HTTP server: {@code /hooks/{project}}. Every request is
 * recorded in arrival order with its headers, its body and whether its signature verifies; each project
 * answers by its {@link Behaviour} (200 unless told otherwise).
 */
public final class PartnerReceiver implements AutoCloseable {

    /** Decides the status to answer; may block to play a hanging partner. */
    @FunctionalInterface
    public interface Behaviour {
        int answer(Request request) throws InterruptedException;
    }

    public record Request(int order,
                          String project,
                          String webhookId,
                          String contentType,
                          String signature,
                          String signatureKeyId,
                          boolean signatureValid,
                          String body,
                          Instant receivedAt) {
    }

    public record Answered(Request request, int status) {
    }

    private final TestSigner signer;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Answered> answers = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    public PartnerReceiver(TestSigner signer) throws IOException {
        this.signer = signer;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/hooks/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public String url(String project) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/" + project;
    }

    public void answer(String project, Behaviour behaviour) {
        behaviours.put(project, behaviour);
    }

    /** A partner that does not answer until the test ends. */
    public Behaviour hanging() {
        return request -> {
            closing.await(30, TimeUnit.SECONDS);
            return 200;
        };
    }

    /** Every request so far, in arrival order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<Request> requestsFor(String webhookId) {
        return requests.stream().filter(request -> request.webhookId().equals(webhookId)).toList();
    }

    /** Requests answered so far, in the order the answers were decided. */
    public List<Answered> answers() {
        return List.copyOf(answers);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            String project = exchange.getRequestURI().getPath().substring("/hooks/".length());
            String signature = exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN");
            Request request;
            synchronized (requests) {
                request = new Request(requests.size(), project,
                        exchange.getRequestHeaders().getFirst("X-PARTNER-WEBHOOK-ID"),
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        signature,
                        exchange.getRequestHeaders().getFirst("X-PARTNER-SIGN-KEY-ID"),
                        signer.verify(body, signature),
                        new String(body, StandardCharsets.UTF_8),
                        Instant.now());
                requests.add(request);
            }
            int status;
            try {
                status = behaviours.getOrDefault(project, r -> 200).answer(request);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = 503;
            }
            answers.add(new Answered(request, status));
            byte[] answer = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
