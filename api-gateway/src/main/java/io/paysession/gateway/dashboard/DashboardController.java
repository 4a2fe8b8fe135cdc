package io.paysession.gateway.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.wire.WireFormat;
import io.paysession.api.error.ErrorCode;
import io.paysession.gateway.http.HttpException;
import io.paysession.gateway.security.AdminToken;
import io.paysession.query.audit.SessionAudit;
import io.paysession.query.session.SessionSearch;
import io.paysession.webhook.admin.NotificationFilter;
import io.paysession.webhook.admin.NotificationRecord;
import io.paysession.webhook.admin.WebhookAdministration;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The operator's dashboard (docs/dashboard.md), pages rendered here from Mustache templates (values escaped), no
 * script of its own on these pages. Signed in with the admin token: a cookie ({@code HttpOnly}, {@code SameSite=Strict},
 * {@code Path=/dashboard}, {@code Secure} behind HTTPS) names a row of {@link DashboardSignIns}; every action is a
 * POST with the sign-in's CSRF token. Off with {@code payments.dashboard.enabled=false} (the production profile's
 * default): every page is then 404.
 */
@RestController
public class DashboardController {

    static final String COOKIE = "payments_dashboard";
    static final int PAGE_SIZE = 25;
    private static final String POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final boolean enabled;
    private final AdminToken adminToken;
    private final DashboardSignIns signIns;
    private final SessionSearch search;
    private final SessionAudit audit;
    private final WebhookAdministration webhooks;
    private final Map<String, Template> templates = new HashMap<>();
    private final byte[] stylesheet;

    public DashboardController(@Value("${payments.dashboard.enabled:true}") boolean enabled, AdminToken adminToken,
                               DashboardSignIns signIns, SessionSearch search, SessionAudit audit,
                               WebhookAdministration webhooks, Mustache.Compiler compiler) {
        this.enabled = enabled;
        this.adminToken = adminToken;
        this.signIns = signIns;
        this.search = search;
        this.audit = audit;
        this.webhooks = webhooks;
        for (String name : List.of("sign-in", "sessions", "session", "message")) {
            templates.put(name, compiler.loadTemplate("dashboard/" + name));
        }
        try {
            this.stylesheet = new ClassPathResource("dashboard/dashboard.css").getContentAsByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---------- sign-in ----------

    @GetMapping({"/dashboard", "/dashboard/"})
    public ResponseEntity<String> home(HttpServletRequest request) {
        requireEnabled();
        return redirect(signedIn(request).isPresent() ? "/dashboard/sessions" : "/dashboard/sign-in");
    }

    @GetMapping("/dashboard/sign-in")
    public ResponseEntity<String> signInPage() {
        requireEnabled();
        return page(HttpStatus.OK, "sign-in", Map.of("title", "Sign in"));
    }

    @PostMapping(value = "/dashboard/sign-in", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    public ResponseEntity<String> signIn(@RequestParam(name = "token", required = false) String token,
                                         HttpServletRequest request) {
        requireEnabled();
        if (token == null || !adminToken.accepts("Bearer " + token.trim())) {
            return page(HttpStatus.UNAUTHORIZED, "sign-in", Map.of("title", "Sign in",
                    "error", "That is not the admin token."));
        }
        DashboardSignIns.SignIn signIn = signIns.create();
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create("/dashboard/sessions"))
                .header(HttpHeaders.SET_COOKIE, cookie(signIn.cookie(), DashboardSignIns.IDLE.toSeconds(), request))
                .cacheControl(CacheControl.noStore()).build();
    }

    @PostMapping(value = "/dashboard/sign-out", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    public ResponseEntity<String> signOut(@RequestParam(name = "csrf", required = false) String csrf,
                                          HttpServletRequest request) {
        requireEnabled();
        Optional<DashboardSignIns.SignIn> signIn = signedIn(request);
        if (signIn.isEmpty()) {
            return redirect("/dashboard/sign-in");
        }
        if (!DashboardSignIns.csrfMatches(signIn.get(), csrf)) {
            return refusedForm();
        }
        signIns.delete(signIn.get().cookie());
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create("/dashboard/sign-in"))
                .header(HttpHeaders.SET_COOKIE, cookie("", 0, request)).cacheControl(CacheControl.noStore()).build();
    }

    @GetMapping("/dashboard/dashboard.css")
    public ResponseEntity<byte[]> stylesheet() {
        requireEnabled();
        return ResponseEntity.ok().contentType(new MediaType("text", "css", StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noCache()).header("X-Content-Type-Options", "nosniff").body(stylesheet);
    }

    // ---------- sessions ----------

    @GetMapping("/dashboard/sessions")
    public ResponseEntity<String> sessions(@RequestParam Map<String, String> query, HttpServletRequest request) {
        return whenSignedIn(request, signIn -> {
            Map<String, Object> model = base(signIn, "Sessions");
            String id = blankToNull(query.get("id"));
            String project = blankToNull(query.get("project"));
            String status = blankToNull(query.get("status"));
            String method = blankToNull(query.get("method"));
            List<String> problems = new ArrayList<>();
            if (id != null && SessionId.parse(id).isEmpty()) {
                problems.add("A session id is ps_ and a number.");
                id = null;
            }
            if (status != null && !List.of("created", "in_progress", "accepted", "cancelled", "error").contains(status)) {
                problems.add("Unknown status " + status + ".");
                status = null;
            }
            if (method != null && !SessionSearch.METHODS.contains(method)) {
                problems.add("Unknown method " + method + ".");
                method = null;
            }
            Instant from = day(query.get("from"), problems, "from", 0);
            Instant to = day(query.get("to"), problems, "to", 1);
            int page = pageNumber(query.get("page"));
            SessionSearch.Page found = search.search(new SessionSearch.Criteria(id, project, status, method, from, to),
                    page * PAGE_SIZE, PAGE_SIZE);
            List<Map<String, Object>> rows = new ArrayList<>();
            for (SessionView view : found.sessions()) {
                rows.add(Map.of("id", view.id(), "project", view.project(), "status", view.status().wireName(),
                        "methods", SessionRows.methods(view), "amount", SessionRows.amount(view),
                        "created", WireFormat.timestamp(view.createdAt()),
                        "updated", WireFormat.timestamp(view.updatedAt())));
            }
            model.put("rows", rows);
            model.put("empty", rows.isEmpty());
            model.put("problems", problems);
            model.put("filter", Map.of("id", orEmpty(query.get("id")), "project", orEmpty(project),
                    "from", orEmpty(query.get("from")), "to", orEmpty(query.get("to"))));
            model.put("statuses", options(List.of("created", "in_progress", "accepted", "cancelled", "error"), status));
            model.put("methods", options(SessionSearch.METHODS.stream().sorted().toList(), method));
            if (page > 0) {
                model.put("previous", pageLink(query, page - 1));
            }
            if (found.hasMore()) {
                model.put("next", pageLink(query, page + 1));
            }
            model.put("page", page + 1);
            return page(HttpStatus.OK, "sessions", model);
        });
    }

    @GetMapping("/dashboard/sessions/{sessionId}")
    public ResponseEntity<String> session(@PathVariable String sessionId,
                                          @RequestParam(name = "position", required = false) String position,
                                          HttpServletRequest request) {
        return whenSignedIn(request, signIn -> {
            Optional<SessionId> id = SessionId.parse(sessionId);
            Optional<ArrayNode> history = id.flatMap(audit::history);
            if (history.isEmpty()) {
                return page(HttpStatus.NOT_FOUND, "message", message(signIn, "No session " + sessionId,
                        "There is no session " + sessionId + "."));
            }
            Map<String, Object> model = base(signIn, "Session " + sessionId);
            model.put("id", sessionId);
            model.put("session_id", sessionId);
            Long chosen = position == null || !position.matches("[0-9]{1,18}") ? null : Long.parseLong(position);
            List<Map<String, Object>> timeline = new ArrayList<>();
            Long previous = null;
            Long next = null;
            boolean passed = false;
            for (JsonNode event : history.get()) {
                Map<String, Object> row = new HashMap<>();
                long eventPosition = event.path("position").asLong(-1);
                boolean current = chosen != null && eventPosition == chosen;
                row.put("position", eventPosition);
                row.put("sequence", event.path("sequence").asLong());
                row.put("time", event.path("time").asText());
                row.put("type", event.path("type").asText());
                row.put("current", current);
                JsonNode origin = event.path("request");
                if (!origin.isMissingNode()) {
                    Map<String, Object> requestRow = new HashMap<>();
                    for (String field : List.of("endpoint", "idempotency_key", "request_id")) {
                        if (origin.hasNonNull(field)) {
                            requestRow.put(field, origin.get(field).asText());
                        }
                    }
                    requestRow.putIfAbsent("endpoint", "");
                    row.put("request", requestRow);
                }
                row.put("payload", pretty(event.path("payload")));
                timeline.add(row);
                if (chosen != null) {
                    if (current) {
                        passed = true;
                    } else if (!passed) {
                        previous = eventPosition;
                    } else if (next == null) {
                        next = eventPosition;
                    }
                }
            }
            model.put("timeline", timeline);
            Optional<ObjectNode> view = audit.viewAt(id.get(), null, chosen, null);
            model.put("view", view.map(DashboardController::pretty).orElse(""));
            model.put("status", view.map(node -> node.path("status").asText()).orElse(""));
            if (chosen != null) {
                Map<String, Object> step = new HashMap<>();
                step.put("position", chosen);
                step.put("sequence", timeline.stream().filter(row -> (boolean) row.get("current"))
                        .map(row -> row.get("sequence")).findFirst().orElse(""));
                if (previous != null) {
                    step.put("previous", "/dashboard/sessions/" + sessionId + "?position=" + previous);
                }
                if (next != null) {
                    step.put("next", "/dashboard/sessions/" + sessionId + "?position=" + next);
                }
                step.put("now", "/dashboard/sessions/" + sessionId);
                model.put("step", step);
            }
            List<Map<String, Object>> notifications = new ArrayList<>();
            for (NotificationRecord notification : webhooks.list(new NotificationFilter(sessionId, null, null,
                    NotificationFilter.MAX_LIMIT)).notifications()) {
                notifications.add(SessionRows.notification(notification));
            }
            model.put("webhooks", notifications);
            model.put("no_webhooks", notifications.isEmpty());
            return page(HttpStatus.OK, "session", model);
        });
    }

    @PostMapping(value = "/dashboard/sessions/{sessionId}/webhooks/{webhookId}/resend",
            consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    public ResponseEntity<String> resend(@PathVariable String sessionId, @PathVariable String webhookId,
                                         @RequestParam(name = "csrf", required = false) String csrf,
                                         HttpServletRequest request) {
        return whenSignedIn(request, signIn -> {
            if (!DashboardSignIns.csrfMatches(signIn, csrf)) {
                return refusedForm();
            }
            UUID id;
            try {
                id = UUID.fromString(webhookId);
            } catch (IllegalArgumentException e) {
                id = null;
            }
            Optional<NotificationRecord> resent = id == null ? Optional.empty()
                    : webhooks.find(id).filter(found -> found.sessionId().equals(sessionId))
                    .flatMap(found -> webhooks.redeliver(found.id(), "dashboard"));
            if (resent.isEmpty()) {
                return page(HttpStatus.NOT_FOUND, "message", message(signIn, "No such webhook",
                        "Session " + sessionId + " has no webhook " + webhookId + "."));
            }
            return redirect("/dashboard/sessions/" + sessionId + "#webhooks");
        });
    }

    // ---------- plumbing ----------

    private ResponseEntity<String> whenSignedIn(HttpServletRequest request,
                                                Function<DashboardSignIns.SignIn, ResponseEntity<String>> page) {
        requireEnabled();
        Optional<DashboardSignIns.SignIn> signIn = signedIn(request);
        if (signIn.isEmpty()) {
            if ("POST".equals(request.getMethod())) {
                return refusedForm();
            }
            return redirect("/dashboard/sign-in");
        }
        return page.apply(signIn.get());
    }

    private Optional<DashboardSignIns.SignIn> signedIn(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie cookie : cookies) {
            if (COOKIE.equals(cookie.getName())) {
                return signIns.find(cookie.getValue());
            }
        }
        return Optional.empty();
    }

    private void requireEnabled() {
        if (!enabled) {
            throw new HttpException(404, ErrorCode.INVALID_REQUEST, "The dashboard is not enabled on this service "
                    + "(payments.dashboard.enabled)");
        }
    }

    private ResponseEntity<String> refusedForm() {
        return page(HttpStatus.FORBIDDEN, "message", Map.of("title", "Refused",
                "heading", "Refused", "text", "The form was not sent from this dashboard (its token is missing or "
                        + "out of date). Open the page again and repeat the action.", "signed_in", false));
    }

    private static Map<String, Object> base(DashboardSignIns.SignIn signIn, String title) {
        Map<String, Object> model = new HashMap<>();
        model.put("title", title);
        model.put("csrf", signIn.csrfToken());
        model.put("signed_in", true);
        return model;
    }

    private static Map<String, Object> message(DashboardSignIns.SignIn signIn, String heading, String text) {
        Map<String, Object> model = base(signIn, heading);
        model.put("heading", heading);
        model.put("text", text);
        return model;
    }

    private ResponseEntity<String> page(HttpStatus status, String template, Map<String, Object> model) {
        return ResponseEntity.status(status).contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noStore())
                .header("Content-Security-Policy", POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .body(templates.get(template).execute(model));
    }

    private static ResponseEntity<String> redirect(String location) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create(location))
                .cacheControl(CacheControl.noStore()).build();
    }

    private static String cookie(String value, long maxAgeSeconds, HttpServletRequest request) {
        boolean https = request.isSecure() || "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
        return ResponseCookie.from(COOKIE, value).path("/dashboard").httpOnly(true).sameSite("Strict")
                .secure(https).maxAge(maxAgeSeconds).build().toString();
    }

    private static Instant day(String text, List<String> problems, String name, int plusDays) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return LocalDate.parse(text.trim()).plusDays(plusDays).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            problems.add(name + " must be a date (2026-11-27).");
            return null;
        }
    }

    private static int pageNumber(String text) {
        if (text == null || !text.matches("[1-9][0-9]{0,5}")) {
            return 0;
        }
        return Integer.parseInt(text) - 1;
    }

    private static String pageLink(Map<String, String> query, int page) {
        StringBuilder link = new StringBuilder("/dashboard/sessions?page=").append(page + 1);
        for (String name : List.of("id", "project", "status", "method", "from", "to")) {
            String value = blankToNull(query.get(name));
            if (value != null) {
                link.append('&').append(name).append('=')
                        .append(java.net.URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        }
        return link.toString();
    }

    private static List<Map<String, Object>> options(List<String> values, String selected) {
        List<Map<String, Object>> options = new ArrayList<>();
        for (String value : values) {
            options.add(Map.of("value", value, "selected", value.equals(selected)));
        }
        return options;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }

    private static String pretty(JsonNode node) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
