package io.paysession.webhook.delivery;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP attempt: POST the stored body, signed now, to the partner's endpoint. Only a 2xx answer
 * within the attempt time-out delivers; anything else, including exceptions, is a failed attempt
 * described by an {@link AttemptResult}, never thrown.
 * <p>
 * The connection goes only to an address {@link WebhookDestinations} checked in this attempt: the HTTP
 * client resolves the partner's host through it, so TLS still sees and verifies the host name (SNI, the
 * certificate) while the socket opens to a checked address. No proxy, no redirects, no automatic retries.
 * The service's own sandbox inbox is sent to on loopback by a client of its own.
 */
@Component
public class WebhookSender implements AutoCloseable {

    static final String SIGNATURE_HEADER = "X-PARTNER-SIGN";
    static final String WEBHOOK_ID_HEADER = "X-PARTNER-WEBHOOK-ID";
    /** The service key that made {@code X-PARTNER-SIGN}, as {@code GET /service/public-keys} lists it. */
    static final String SIGNATURE_KEY_ID_HEADER = "X-PARTNER-SIGN-KEY-ID";
    private static final ContentType JSON = ContentType.create("application/json");

    private final WebhookSigner signer;
    private final WebhookDestinations destinations;
    private final Duration attemptTimeout;
    private final Duration connectTimeout;
    private final CloseableHttpClient partners;
    private final CloseableHttpClient ownInbox;
    private final ScheduledThreadPoolExecutor deadlines;

    public WebhookSender(WebhookSigner signer, WebhookProperties properties, WebhookDestinations destinations) {
        this.signer = signer;
        this.destinations = destinations;
        this.attemptTimeout = properties.attemptTimeout();
        this.connectTimeout = properties.connectTimeout();
        this.partners = client(properties, new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                return destinations.permittedAddresses(host).toArray(InetAddress[]::new);
            }

            @Override
            public String resolveCanonicalHostname(String host) throws UnknownHostException {
                return SystemDefaultDnsResolver.INSTANCE.resolveCanonicalHostname(host);
            }
        });
        this.ownInbox = client(properties, new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) {
                return new InetAddress[]{InetAddress.getLoopbackAddress()};
            }

            @Override
            public String resolveCanonicalHostname(String host) {
                return host;
            }
        });
        this.deadlines = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "webhook-attempt-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        this.deadlines.setRemoveOnCancelPolicy(true);
    }

    private static CloseableHttpClient client(WebhookProperties properties, DnsResolver resolver) {
        Timeout attempt = Timeout.of(properties.attemptTimeout());
        return HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(resolver)
                        // the dispatcher bounds the sends; the pool must never be what makes one wait
                        .setMaxConnTotal(properties.maxConcurrentDeliveries())
                        .setMaxConnPerRoute(properties.maxConcurrentDeliveries())
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.of(properties.connectTimeout()))
                                .setSocketTimeout(attempt)
                                .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                                .build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(attempt)
                        .setResponseTimeout(attempt)
                        .setRedirectsEnabled(false)
                        .build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .setUserAgent("payment-session-service-webhooks")
                .build();
    }

    public AttemptResult send(ClaimedNotification notification) {
        long started = System.nanoTime();
        URI url;
        try {
            url = new URI(notification.url());
            if (!url.isAbsolute() || url.getHost() == null
                    || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
                return AttemptResult.notSent("invalid webhook url: not an absolute http or https URL", millisSince(started));
            }
        } catch (URISyntaxException e) {
            return AttemptResult.notSent("invalid webhook url: " + e.getMessage(), millisSince(started));
        }
        HttpPost request = new HttpPost(url);
        try {
            byte[] body = notification.body().getBytes(StandardCharsets.UTF_8);
            WebhookSigner.Signature signature = signer.sign(body);
            request.setHeader(SIGNATURE_HEADER, signature.value());
            request.setHeader(SIGNATURE_KEY_ID_HEADER, signature.keyId());
            request.setHeader(WEBHOOK_ID_HEADER, notification.id().toString());
            request.setEntity(new ByteArrayEntity(body, JSON));
        } catch (RuntimeException e) {
            return AttemptResult.notSent("cannot sign the webhook: " + describe(e), millisSince(started));
        }
        CloseableHttpClient client = destinations.isOwnInbox(url) ? ownInbox : partners;
        // The socket time-out bounds each wait for data; this bounds the whole exchange.
        ScheduledFuture<?> deadline = deadlines.schedule(request::cancel, attemptTimeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            int status = client.execute(request, response -> {
                EntityUtils.consume(response.getEntity());
                return response.getCode();
            });
            if (request.isCancelled()) {
                return AttemptResult.noAnswer(noAnswerInTime(), millisSince(started));
            }
            return AttemptResult.answered(status, millisSince(started));
        } catch (IOException e) {
            return failure(e, request.isCancelled(), millisSince(started));
        } catch (RuntimeException e) {
            return AttemptResult.noAnswer(describe(e), millisSince(started));
        } finally {
            deadline.cancel(false);
        }
    }

    private AttemptResult failure(IOException e, boolean cancelled, long latency) {
        RefusedDestinationException refused = causeOf(e, RefusedDestinationException.class);
        if (refused != null) {
            return AttemptResult.notSent("refused destination: " + refused.getMessage() + "; "
                    + WebhookDestinations.ALLOWANCE_HINT, latency);
        }
        if (causeOf(e, ConnectTimeoutException.class) != null) {
            return AttemptResult.noAnswer("no connection within " + connectTimeout.toMillis() + " ms", latency);
        }
        if (cancelled || causeOf(e, SocketTimeoutException.class) != null) {
            return AttemptResult.noAnswer(noAnswerInTime(), latency);
        }
        UnknownHostException unknown = causeOf(e, UnknownHostException.class);
        if (unknown != null) {
            return AttemptResult.noAnswer("unknown host: " + unknown.getMessage(), latency);
        }
        return AttemptResult.noAnswer(describe(e), latency);
    }

    private static <T extends Throwable> T causeOf(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
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

    /** Ends every connection at once, sends in flight included (the dispatcher has stopped by then). */
    @Override
    public void close() {
        deadlines.shutdownNow();
        partners.close(CloseMode.IMMEDIATE);
        ownInbox.close(CloseMode.IMMEDIATE);
    }
}
