package io.paysession.webhook.delivery;

import org.springframework.stereotype.Component;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One HTTP attempt: POST the stored body, signed now, to the partner's endpoint. Only a 2xx answer
 * within the attempt time-out delivers; anything else, including exceptions, is a failed attempt
 * described by an {@link AttemptResult}, never thrown.
 */
@Component
public class WebhookSender {

    static final String SIGNATURE_HEADER = "X-PARTNER-SIGN";
    static final String WEBHOOK_ID_HEADER = "X-PARTNER-WEBHOOK-ID";

    private final WebhookSigner signer;
    private final Duration attemptTimeout;
    private final Duration connectTimeout;
    private final HttpClient client;

    public WebhookSender(WebhookSigner signer, WebhookProperties properties) {
        this.signer = signer;
        this.attemptTimeout = properties.attemptTimeout();
        this.connectTimeout = properties.connectTimeout();
        this.client = HttpClient.newBuilder()
                .connectTimeout(properties.connectTimeout())
                // HTTP/1.1: plain-http partner servers often mishandle an h2c upgrade on a POST.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    public AttemptResult send(ClaimedNotification notification) {
        long started = System.nanoTime();
        HttpRequest request;
        try {
            byte[] body = notification.body().getBytes(StandardCharsets.UTF_8);
            request = HttpRequest.newBuilder(URI.create(notification.url()))
                    .timeout(attemptTimeout)
                    .header("Content-Type", "application/json")
                    .header(SIGNATURE_HEADER, signer.sign(body))
                    .header(WEBHOOK_ID_HEADER, notification.id().toString())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
        } catch (IllegalArgumentException e) {
            return AttemptResult.noAnswer("invalid webhook url: " + e.getMessage(), millisSince(started));
        } catch (RuntimeException e) {
            return AttemptResult.noAnswer("cannot sign the webhook: " + describe(e), millisSince(started));
        }
        // The request time-out only covers the wait for the headers; this bounds the whole exchange.
        CompletableFuture<HttpResponse<Void>> response = client.sendAsync(request, HttpResponse.BodyHandlers.discarding());
        try {
            int status = response.get(attemptTimeout.toMillis(), TimeUnit.MILLISECONDS).statusCode();
            return AttemptResult.answered(status, millisSince(started));
        } catch (TimeoutException e) {
            response.cancel(true);
            return AttemptResult.noAnswer(noAnswerInTime(), millisSince(started));
        } catch (ExecutionException e) {
            // the client's own time-outs race with the one above; either way the operator reads the same words
            if (e.getCause() instanceof HttpConnectTimeoutException) {
                return AttemptResult.noAnswer("no connection within " + connectTimeout.toMillis() + " ms",
                        millisSince(started));
            }
            if (e.getCause() instanceof HttpTimeoutException) {
                return AttemptResult.noAnswer(noAnswerInTime(), millisSince(started));
            }
            return AttemptResult.noAnswer(describe(e.getCause()), millisSince(started));
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
            return AttemptResult.noAnswer("interrupted by shutdown", millisSince(started));
        }
    }

    private String noAnswerInTime() {
        return "no answer within " + attemptTimeout.toMillis() + " ms";
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        String name = failure.getClass().getSimpleName();
        return message == null || message.isBlank() ? name : name + ": " + message;
    }

    private static long millisSince(long startedNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
    }
}
