package io.paysession.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.benchmark.ServiceClient.Answer;
import io.paysession.benchmark.WebhookReceiver.Webhook;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Virtual users, each running full card lifecycles one after another (a closed loop: a user waits for
 * each answer and webhook before its next step): {@code init/payment}, wait for {@code ready_to_confirm},
 * {@code confirm}, wait for {@code payment_finished} (and {@code status} if asked). Figures go into the
 * current {@link Window}; the caller opens and closes the measured window, so warm-up and the drain at the
 * end are not measured. Failures are counted over the whole run.
 */
final class LoadGenerator {

    static final String INIT = "/api/v1/session/init/payment";
    static final String CONFIRM = "/api/v1/session/confirm";
    static final String STATUS = "/api/v1/session/status";
    private static final String TEST_CARD = "4242424242424242";

    /** What was measured in one window. Latencies in microseconds. */
    static final class Window {
        final Histogram init = new ConcurrentHistogram(3);
        final Histogram confirm = new ConcurrentHistogram(3);
        final Histogram status = new ConcurrentHistogram(3);
        final Histogram confirmToFinished = new ConcurrentHistogram(3);
        final Histogram initToReady = new ConcurrentHistogram(3);
        final Histogram lifecycle = new ConcurrentHistogram(3);
        final LongAdder completed = new LongAdder();
        final LongAdder signedRequests = new LongAdder();
    }

    private final ServiceClient client;
    private final WebhookReceiver webhooks;
    private final List<Partner> partners;
    private final BenchmarkOptions options;
    private final Failures failures;
    private final List<Thread> users = new ArrayList<>();
    private volatile Window current = new Window(); // warm-up figures land here and are dropped
    private volatile boolean starting = true;

    LoadGenerator(ServiceClient client, WebhookReceiver webhooks, List<Partner> partners, BenchmarkOptions options,
                  Failures failures) {
        this.client = client;
        this.webhooks = webhooks;
        this.partners = partners;
        this.options = options;
        this.failures = failures;
    }

    void start() {
        for (int i = 0; i < options.concurrency(); i++) {
            Partner partner = partners.get(i % partners.size());
            int user = i;
            Thread thread = new Thread(() -> runUser(partner, user), "user-" + i);
            thread.setDaemon(true);
            users.add(thread);
            thread.start();
        }
    }

    Window openWindow() {
        Window window = new Window();
        current = window;
        return window;
    }

    /** Ends the window: what happens from now on is not measured, and no user starts another lifecycle. */
    void closeWindow() {
        current = new Window();
        starting = false;
    }

    /** Waits for the users to finish the lifecycles they are in; true if all did within {@code timeout}. */
    boolean drain(Duration timeout) throws InterruptedException {
        starting = false;
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread user : users) {
            user.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        boolean drained = users.stream().noneMatch(Thread::isAlive);
        users.forEach(Thread::interrupt);
        return drained;
    }

    private void runUser(Partner partner, int user) {
        long sequence = 0;
        while (starting && !Thread.currentThread().isInterrupted()) {
            try {
                lifecycle(partner, "bench-customer-" + user + "-" + sequence++);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void lifecycle(Partner partner, String customer) throws InterruptedException {
        long started = System.nanoTime();
        Answer init = call(INIT, partner, initBody(customer), w -> w.init);
        if (init == null) {
            return;
        }
        long initAnswered = System.nanoTime();
        String sessionId = init.body().path("session").path("id").asText();
        try {
            Webhook ready = await(webhooks.readyToConfirm(sessionId), WebhookReceiver.READY_TO_CONFIRM);
            if (ready == null) {
                return;
            }
            // a fast rail's webhook may come before the answer to init is read: that counts as 0
            current.initToReady.recordValue(micros(ready.receivedAtNanos() - initAnswered));
            if (!ok(ready, null)) {
                return;
            }
            long confirmSent = System.nanoTime();
            if (call(CONFIRM, partner, sessionBody(sessionId), w -> w.confirm) == null) {
                return;
            }
            Webhook finished = await(webhooks.paymentFinished(sessionId), WebhookReceiver.PAYMENT_FINISHED);
            if (finished == null) {
                return;
            }
            Window window = current;
            window.confirmToFinished.recordValue(micros(finished.receivedAtNanos() - confirmSent));
            window.lifecycle.recordValue(micros(finished.receivedAtNanos() - started));
            if (!ok(finished, "accepted")) {
                return;
            }
            if (options.statusCheck()) {
                Answer status = call(STATUS, partner, sessionBody(sessionId), w -> w.status);
                if (status == null) {
                    return;
                }
                String seen = status.body().path("session").path("status").asText();
                if (!"accepted".equals(seen)) {
                    failures.add("session/status after payment_finished says " + seen);
                    return;
                }
            }
            current.completed.increment();
        } finally {
            webhooks.forget(sessionId);
        }
    }

    private interface HistogramOf {
        Histogram of(Window window);
    }

    /** A signed request; null (and a counted failure) unless it answered 200 with {@code status: ok}. */
    private Answer call(String path, Partner partner, byte[] body, HistogramOf histogram) throws InterruptedException {
        long started = System.nanoTime();
        Answer answer;
        try {
            answer = client.post(partner, path, body);
        } catch (IOException e) {
            failures.add(shortName(path) + ": no answer (" + e.getClass().getSimpleName() + ")");
            return null;
        }
        long elapsed = System.nanoTime() - started;
        Window window = current;
        window.signedRequests.increment();
        histogram.of(window).recordValue(micros(elapsed));
        if (answer.status() != 200 || !"ok".equals(answer.body().path("status").asText())) {
            failures.add(shortName(path) + ": HTTP " + answer.status() + " " + answer.errorCode());
            return null;
        }
        return answer;
    }

    private Webhook await(CompletableFuture<Webhook> webhook, String type) throws InterruptedException {
        try {
            return webhook.get(options.webhookTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            failures.add("no " + type + " webhook within " + options.webhookTimeout().toSeconds() + " s");
            return null;
        } catch (ExecutionException e) {
            failures.add(type + ": " + e.getCause());
            return null;
        }
    }

    private boolean ok(Webhook webhook, String expectedStatus) {
        if (webhook == null) {
            return false;
        }
        if (!webhook.signatureValid()) {
            return false; // counted by the receiver, once per webhook
        }
        if (expectedStatus != null && !expectedStatus.equals(webhook.sessionStatus())) {
            failures.add(webhook.type() + " webhook with session status " + webhook.sessionStatus());
            return false;
        }
        return true;
    }

    /** A card payment of 1.00 to 1000.00 RUB with the sandbox's approving test card. */
    private static byte[] initBody(String customer) {
        ObjectNode body = ServiceClient.JSON.createObjectNode();
        body.putObject("payment_details").put("type", "card")
                .putObject("card").put("type", "bank_card")
                .putObject("bank_card")
                .put("number", TEST_CARD)
                .put("expiration_month", "12")
                .put("expiration_year", "34")
                .put("security_code", "123");
        body.putObject("amount_details").put("amount", ThreadLocalRandom.current().nextLong(100, 100_001))
                .put("currency", "rub");
        body.putObject("customer").put("reference", customer);
        return bytes(body);
    }

    private static byte[] sessionBody(String sessionId) {
        return bytes(ServiceClient.JSON.createObjectNode().put("session_id", sessionId));
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return ServiceClient.JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String shortName(String path) {
        return path.substring(path.indexOf("/session/") + 1);
    }

    private static long micros(long nanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMicros(nanos));
    }
}
