package io.paysession.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code listen}: the partner's webhooks as the service produces them, read through the partner's own signed
 * {@code notification/list} (no change of the registered webhook URL), each shown and, with {@code --forward-to},
 * posted to a local endpoint with its body and signature unchanged, as the service sends it.
 */
@Command(name = "listen", mixinStandardHelpOptions = true,
        description = {"Shows the partner's webhooks as they are produced and forwards each, body and "
                + "X-PARTNER-SIGN unchanged, to a local endpoint, printing its answer.",
                "Example: listen --forward-to http://localhost:3000/payments/webhooks"})
final class ListenCommand implements Callable<Integer> {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");
    private static final int PAGE = 100;
    private static final Duration LOOK_BACK = Duration.ofSeconds(10);

    private final Context context;

    @Mixin
    Connection connection;

    @Option(names = "--forward-to", paramLabel = "URL", description = "the local endpoint each webhook is posted to")
    String forwardTo;

    @Option(names = "--since", paramLabel = "INSTANT|now", defaultValue = "now",
            description = "the first webhooks shown: those produced from this instant (ISO 8601; default: now)")
    String since;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
            description = "how often the service is asked (default: ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = "--for", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "stop after this long (default: until interrupted)")
    Duration runFor;

    @Option(names = "--count", paramLabel = "N", description = "stop after N webhooks")
    Integer count;

    ListenCommand(Context context) {
        this.context = context;
        this.connection = new Connection(context);
    }

    @Override
    public Integer call() throws InterruptedException {
        Instant start = start();
        Instant from = start;
        Instant newest = start;
        Optional<URI> target = Optional.ofNullable(forwardTo).map(ListenCommand::forwardTarget);
        ServiceApi service = new ServiceApi(context.http(), connection.baseUrl());
        PrivateKey key = connection.privateKey();
        String project = connection.project();
        long startedAt = System.nanoTime();
        context.err().println("listening to the webhooks of " + project + " at " + service.baseUrl() + " from " + from
                + target.map(uri -> ", forwarding to " + uri).orElse("") + " (Ctrl-C to stop)");
        context.err().flush();
        Map<String, Instant> seen = new HashMap<>();
        int shown = 0;
        while ((runFor == null || System.nanoTime() - startedAt < runFor.toNanos()) && (count == null || shown < count)) {
            ObjectNode query = ServiceApi.JSON.createObjectNode()
                    .put("created_from", from.toString())
                    .put("order", "oldest_first")
                    .put("with_body", true)
                    .put("limit", PAGE);
            ServiceApi.Answer answer = service.post("/api/v1/notification/list",
                    query.toString().getBytes(StandardCharsets.UTF_8), project, key, Optional.empty());
            if (!answer.ok()) {
                throw new CliException("notification/list answered HTTP " + answer.status() + " "
                        + answer.errorCode() + ": " + answer.json().path("error").path("description").asText(""));
            }
            Instant pageLast = null;
            for (JsonNode notification : answer.json().path("notifications")) {
                Instant created = Instant.parse(notification.path("created_at").asText());
                pageLast = created;
                newest = created.isAfter(newest) ? created : newest;
                if (seen.putIfAbsent(notification.path("id").asText(), created) != null) {
                    continue;
                }
                show(notification, target);
                shown++;
                if (count != null && shown >= count) {
                    return 0;
                }
            }
            if (answer.json().path("has_more").asBoolean(false) && pageLast != null) {
                from = pageLast;
            } else {
                // a notification committed late may carry a creation time before the newest one shown: look back
                Instant lookBack = newest.minus(LOOK_BACK);
                from = lookBack.isAfter(start) ? lookBack : start;
                long left = runFor == null ? interval.toMillis() : runFor.toMillis() - (System.nanoTime() - startedAt) / 1_000_000;
                Thread.sleep(Math.max(1, Math.min(interval.toMillis(), left)));
            }
            Instant keepFrom = from;
            seen.values().removeIf(created -> created.isBefore(keepFrom));
        }
        return 0;
    }

    private Instant start() {
        if (since.equals("now")) {
            return context.clock().instant();
        }
        try {
            return Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw new CliException("--since is now or an ISO 8601 instant such as 2026-11-27T10:00:00Z, not " + since);
        }
    }

    private void show(JsonNode notification, Optional<URI> target) {
        context.out().println(notification.path("created_at").asText() + "  " + notification.path("type").asText()
                + "  " + notification.path("session_id").asText() + "  " + notification.path("id").asText());
        if (target.isPresent()) {
            byte[] body = notification.path("body").asText().getBytes(StandardCharsets.UTF_8);
            HttpRequest request = HttpRequest.newBuilder(target.get())
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header("X-PARTNER-SIGN", notification.path("signature").asText())
                    .header("X-PARTNER-SIGN-KEY-ID", notification.path("signature_key_id").asText())
                    .header("X-PARTNER-WEBHOOK-ID", notification.path("id").asText())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            try {
                ServiceApi.Answer answer = new ServiceApi(context.http(), target.get().toString())
                        .send(request, target.get().toString());
                context.out().println("  -> " + target.get() + " HTTP " + answer.status() + " in " + answer.millis()
                        + " ms");
            } catch (CliException e) {
                context.out().println("  -> " + e.getMessage());
            }
        }
        context.out().flush();
    }

    private static URI forwardTarget(String url) {
        try {
            URI uri = URI.create(url);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (IllegalArgumentException e) {
            // said below
        }
        throw new CliException("--forward-to must be an http(s) URL, not " + url);
    }

    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            Matcher matcher = DURATION.matcher(text.trim());
            if (!matcher.matches()) {
                throw new picocli.CommandLine.TypeConversionException("not a duration: " + text
                        + " (use 500ms, 30s, 2m or 1h)");
            }
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofSeconds(amount);
            };
        }
    }
}
