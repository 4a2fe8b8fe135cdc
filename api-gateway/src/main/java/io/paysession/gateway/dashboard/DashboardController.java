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
import io.paysession.gateway.idempotency.IdempotencyAudit;
import io.paysession.gateway.infra.Webjars;
import io.paysession.gateway.security.AdminToken;
import io.paysession.api.settlement.ReportRow;
import io.paysession.api.settlement.SettlementReport;
import io.paysession.query.audit.Reconciliation;
import io.paysession.query.audit.ReportFormats;
import io.paysession.query.audit.SessionAudit;
import io.paysession.query.session.SessionSearch;
import io.paysession.webhook.admin.NotificationFilter;
import io.paysession.webhook.admin.NotificationRecord;
import io.paysession.webhook.admin.WebhookAdministration;
import io.paysession.webhook.admin.WebhookHealth;
import io.paysession.webhook.delivery.WebhookDispatcher;
import org.springframework.beans.factory.ObjectProvider;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
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
 * default): the controller is then not there and every {@code /dashboard} path is the API's 404.
 */
@RestController
@ConditionalOnProperty(name = "payments.dashboard.enabled", havingValue = "true", matchIfMissing = true)
public class DashboardController {

    static final String COOKIE = "payments_dashboard";
    static final int PAGE_SIZE = 25;
    static final int LIVE_MINUTES = 60;
    private static final String POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    private static final String CHART_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    private static final String ECHARTS = "/webjars/echarts/" + Webjars.version("org.webjars.npm", "echarts")
            + "/dist/echarts.min.js";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminToken adminToken;
    private final DashboardSignIns signIns;
    private final SessionSearch search;
    private final SessionAudit audit;
    private final WebhookAdministration webhooks;
    private final WebhookHealth health;
    private final ObjectProvider<WebhookDispatcher> dispatcher;
    private final Reconciliation reconciliation;
    private final IdempotencyAudit idempotency;
    private final Map<String, Template> templates = new HashMap<>();
    private final byte[] stylesheet;
    private final byte[] charts;

    public DashboardController(AdminToken adminToken,
                               DashboardSignIns signIns, SessionSearch search, SessionAudit audit,
                               WebhookAdministration webhooks, WebhookHealth health,
                               ObjectProvider<WebhookDispatcher> dispatcher, Reconciliation reconciliation,
                               IdempotencyAudit idempotency, Mustache.Compiler compiler) {
        this.adminToken = adminToken;
        this.signIns = signIns;
        this.search = search;
        this.audit = audit;
        this.webhooks = webhooks;
        this.health = health;
        this.dispatcher = dispatcher;
        this.reconciliation = reconciliation;
        this.idempotency = idempotency;
        for (String name : List.of("sign-in", "sessions", "session", "message", "webhooks", "reconciliation", "live")) {
            templates.put(name, compiler.loadTemplate("dashboard/" + name));
        }
        try {
            this.stylesheet = new ClassPathResource("dashboard/dashboard.css").getContentAsByteArray();
            this.charts = new ClassPathResource("dashboard/charts.js").getContentAsByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---------- sign-in ----------

    @GetMapping({"/dashboard", "/dashboard/"})
    public ResponseEntity<String> home(HttpServletRequest request) {
        return redirect(signedIn(request).isPresent() ? "/dashboard/sessions" : "/dashboard/sign-in");
    }

    @GetMapping("/dashboard/sign-in")
    public ResponseEntity<String> signInPage() {
        return page(HttpStatus.OK, "sign-in", Map.of("title", "Sign in"));
    }

    @PostMapping(value = "/dashboard/sign-in")
    public ResponseEntity<String> signIn(@RequestParam(name = "token", required = false) String token,
                                         HttpServletRequest request) {
        if (token == null || !adminToken.accepts("Bearer " + token.trim())) {
            return page(HttpStatus.UNAUTHORIZED, "sign-in", Map.of("title", "Sign in",
                    "error", "That is not the admin token."));
        }
        DashboardSignIns.SignIn signIn = signIns.create();
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create("/dashboard/sessions"))
                .header(HttpHeaders.SET_COOKIE, cookie(signIn.cookie(), DashboardSignIns.LONGEST.toSeconds(), request))
                .cacheControl(CacheControl.noStore()).build();
    }

    @PostMapping(value = "/dashboard/sign-out")
    public ResponseEntity<String> signOut(@RequestParam(name = "csrf", required = false) String csrf,
                                          HttpServletRequest request) {
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
            Map<String, String> decisions = new HashMap<>();
            List<Map<String, Object>> keyed = new ArrayList<>();
            for (JsonNode decision : idempotency.decisionsOfSession(sessionId)) {
                decisions.put(decision.path("request_id").asText(), decision.path("decision").asText());
                Map<String, Object> line = new HashMap<>();
                for (String field : List.of("decided_at", "endpoint", "idempotency_key", "decision", "response_status",
                        "request_id")) {
                    line.put(field, decision.path(field).asText(""));
                }
                if (decision.hasNonNull("original_request_id")) {
                    line.put("original_request_id", decision.get("original_request_id").asText());
                }
                keyed.add(line);
            }
            model.put("keyed", keyed);
            model.put("no_keyed", keyed.isEmpty());
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
                    String decision = decisions.get(origin.path("request_id").asText());
                    if (decision != null) {
                        requestRow.put("decision", decision);
                    }
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

    @PostMapping(value = "/dashboard/sessions/{sessionId}/webhooks/{webhookId}/resend")
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

    @GetMapping("/dashboard/charts.js")
    public ResponseEntity<byte[]> chartsScript() {
        return ResponseEntity.ok().contentType(new MediaType("text", "javascript", StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noCache()).header("X-Content-Type-Options", "nosniff").body(charts);
    }

    // ---------- webhook health ----------

    @GetMapping("/dashboard/webhooks")
    public ResponseEntity<String> webhookHealth(HttpServletRequest request) {
        return whenSignedIn(request, signIn -> {
            Map<String, Object> model = base(signIn, "Webhook health");
            List<Map<String, Object>> partners = new ArrayList<>();
            WebhookDispatcher node = dispatcher.getIfAvailable();
            for (WebhookHealth.PartnerHealth partner : health.partners()) {
                Map<String, Object> row = new HashMap<>();
                row.put("project", partner.project());
                row.put("attempts_hour", partner.attemptsHour());
                row.put("succeeded_hour", partner.succeededHour());
                row.put("attempts_day", partner.attemptsDay());
                row.put("success_day", partner.successRateDay() == null ? "–"
                        : String.format(java.util.Locale.ROOT, "%.1f %%", partner.successRateDay() * 100));
                row.put("p50", milliseconds(partner.medianLatency()));
                row.put("p99", milliseconds(partner.p99Latency()));
                row.put("pending", partner.pending());
                row.put("parked", partner.parked());
                String circuit = node == null ? "not on this node"
                        : node.circuitState(partner.project()).orElse("CLOSED");
                row.put("circuit", circuit);
                row.put("circuit_class", circuit.equals("CLOSED") ? "accepted"
                        : circuit.equals("OPEN") ? "cancelled" : "pending");
                partners.add(row);
            }
            model.put("partners", partners);
            model.put("no_partners", partners.isEmpty());
            List<String> labels = new ArrayList<>();
            List<Long> succeeded = new ArrayList<>();
            List<Long> failed = new ArrayList<>();
            for (WebhookHealth.HourBucket hour : health.hours()) {
                labels.add(hour.hour().toString().substring(11, 16));
                succeeded.add(hour.succeeded());
                failed.add(hour.attempts() - hour.succeeded());
            }
            model.put("chart_json", chart("bar", labels, List.of(
                    Map.of("name", "succeeded", "values", succeeded, "stack", "attempts", "color", "#2e8b57"),
                    Map.of("name", "failed", "values", failed, "stack", "attempts", "color", "#c0392b"))));
            model.put("echarts", ECHARTS);
            return chartPage("webhooks", model);
        });
    }

    // ---------- live ----------

    @GetMapping("/dashboard/live")
    public ResponseEntity<String> live(HttpServletRequest request) {
        return whenSignedIn(request, signIn -> {
            Map<String, Object> model = base(signIn, "Live");
            model.put("chart_json", liveChart());
            model.put("echarts", ECHARTS);
            return chartPage("live", model);
        });
    }

    /** The live chart's data, asked for again by the page every few seconds. */
    @GetMapping("/dashboard/live.json")
    public ResponseEntity<String> liveData(HttpServletRequest request) {
        if (signedIn(request).isEmpty()) {
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED).contentType(MediaType.APPLICATION_JSON)
                    .cacheControl(CacheControl.noStore()).body("{\"signed_in\":false}");
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).cacheControl(CacheControl.noStore())
                .header("X-Content-Type-Options", "nosniff").body(liveChart());
    }

    private String liveChart() {
        List<String> labels = new ArrayList<>();
        List<Long> started = new ArrayList<>();
        List<Long> finished = new ArrayList<>();
        for (SessionSearch.Minute minute : search.perMinute(Instant.now(), LIVE_MINUTES)) {
            labels.add(minute.minute().toString().substring(11, 16));
            started.add(minute.started());
            finished.add(minute.finished());
        }
        return chart("line", labels, List.of(Map.of("name", "started", "values", started, "color", "#4a6fd1"),
                Map.of("name", "finished", "values", finished, "color", "#2e8b57")));
    }

    // ---------- reconciliation ----------

    @GetMapping("/dashboard/reconciliation")
    public ResponseEntity<String> reconciliation(@RequestParam Map<String, String> query, HttpServletRequest request) {
        return whenSignedIn(request, signIn -> {
            Map<String, Object> model = base(signIn, "Reconciliation");
            List<String> projects = search.projects();
            String project = blankToNull(query.get("project"));
            if (project == null && !projects.isEmpty()) {
                project = projects.get(0);
            }
            List<String> problems = new ArrayList<>();
            LocalDate to = date(query.get("to"), LocalDate.now(ZoneOffset.UTC), problems, "to");
            LocalDate from = date(query.get("from"), to.minusDays(6), problems, "from");
            if (from.isAfter(to) || from.plusDays(366).isBefore(to)) {
                problems.add("from must be before to, at most a year apart.");
                from = to.minusDays(6);
            }
            model.put("projects", options(projects, project));
            model.put("filter", Map.of("from", from.toString(), "to", to.toString()));
            model.put("problems", problems);
            model.put("echarts", ECHARTS);
            if (project == null || !projects.contains(project)) {
                model.put("no_project", true);
                return chartPage("reconciliation", model);
            }
            SettlementReport report = reconciliation.report(project, from, to, false);
            List<Map<String, Object>> rows = new ArrayList<>();
            for (ReportRow row : report.rows()) {
                rows.add(reportRow(row, row.day().toString()));
            }
            List<Map<String, Object>> totals = new ArrayList<>();
            report.totals().forEach((currency, total) -> totals.add(reportRow(total, "")));
            model.put("rows", rows);
            model.put("totals", totals);
            model.put("empty", rows.isEmpty());
            model.put("report", Map.of("project", project, "position", report.position(),
                    "failures", report.failures().size()));
            model.put("csv", "/dashboard/reconciliation.csv?project=" + encode(project) + "&from=" + from + "&to=" + to);
            Reconciliation.Verification verification = reconciliation.verify(project, from, to);
            model.put("verification", Map.of("matches", verification.matches(), "position", verification.position(),
                    "differences", verification.differences()));
            model.put("chart_json", reconciliationChart(report, from, to));
            return chartPage("reconciliation", model);
        });
    }

    @GetMapping("/dashboard/reconciliation.csv")
    public ResponseEntity<String> reconciliationCsv(@RequestParam Map<String, String> query,
                                                    HttpServletRequest request) {
        if (signedIn(request).isEmpty()) {
            return redirect("/dashboard/sign-in");
        }
        String project = blankToNull(query.get("project"));
        List<String> problems = new ArrayList<>();
        LocalDate to = date(query.get("to"), LocalDate.now(ZoneOffset.UTC), problems, "to");
        LocalDate from = date(query.get("from"), to.minusDays(6), problems, "from");
        if (project == null || !search.projects().contains(project) || !problems.isEmpty() || from.isAfter(to)) {
            return ResponseEntity.status(HttpStatus.BAD_REQUEST).contentType(MediaType.TEXT_PLAIN)
                    .body("project, from and to must name a registered partner and a date range\n");
        }
        SettlementReport report = reconciliation.report(project, from, to, false);
        return ResponseEntity.ok().contentType(new MediaType("text", "csv", StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"reconciliation-" + project + "-"
                        + from + "-" + to + ".csv\"")
                .body(ReportFormats.csv(report));
    }

    private static Map<String, Object> reportRow(ReportRow row, String day) {
        Map<String, Object> line = new HashMap<>();
        line.put("day", day);
        line.put("currency", row.currency().toUpperCase(java.util.Locale.ROOT));
        line.put("method", row.method() == null ? "" : row.method());
        line.put("operation", row.operation() == null ? "" : row.operation());
        line.put("count", row.count());
        line.put("gross", SessionRows.decimal(row.gross(), row.currency(), false));
        line.put("fees", SessionRows.decimal(row.fees(), row.currency(), false));
        line.put("net", SessionRows.decimal(row.net(), row.currency(), false));
        return line;
    }

    /** Net per day of the report's first currency, a series per operation. */
    private static String reconciliationChart(SettlementReport report, LocalDate from, LocalDate to) {
        List<String> labels = new ArrayList<>();
        for (LocalDate day = from; !day.isAfter(to); day = day.plusDays(1)) {
            labels.add(day.toString());
        }
        String currency = report.totals().keySet().stream().findFirst().orElse(null);
        Map<String, long[]> byOperation = new java.util.TreeMap<>();
        for (ReportRow row : report.rows()) {
            if (row.currency().equals(currency)) {
                long[] values = byOperation.computeIfAbsent(row.operation(), operation -> new long[labels.size()]);
                values[labels.indexOf(row.day().toString())] += row.net();
            }
        }
        int digits = currency == null ? 2 : java.util.Currency.getInstance(currency.toUpperCase(java.util.Locale.ROOT))
                .getDefaultFractionDigits();
        List<Map<String, Object>> series = new ArrayList<>();
        byOperation.forEach((operation, values) -> {
            List<java.math.BigDecimal> amounts = new ArrayList<>();
            for (long value : values) {
                amounts.add(java.math.BigDecimal.valueOf(value, Math.max(digits, 0)));
            }
            series.add(Map.of("name", operation + (currency == null ? "" : " (net, "
                    + currency.toUpperCase(java.util.Locale.ROOT) + ")"), "values", amounts, "stack", "net"));
        });
        return chart("bar", labels, series);
    }

    private static String milliseconds(Double value) {
        return value == null ? "–" : Math.round(value) + " ms";
    }

    /** A chart's data for charts.js, as JSON inside a {@code <script type="application/json">}: {@code <} escaped. */
    private static String chart(String type, List<String> labels, List<Map<String, Object>> series) {
        try {
            return JSON.writeValueAsString(Map.of("type", type, "labels", labels, "series", series))
                    .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static LocalDate date(String text, LocalDate otherwise, List<String> problems, String name) {
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return LocalDate.parse(text.trim());
        } catch (DateTimeParseException e) {
            problems.add(name + " must be a date (2026-11-27).");
            return otherwise;
        }
    }

    private static String encode(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** A page with charts: the service's own scripts (ECharts from its webjar, charts.js) and ECharts' inline styles. */
    private ResponseEntity<String> chartPage(String template, Map<String, Object> model) {
        return ResponseEntity.ok().contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noStore())
                .header("Content-Security-Policy", CHART_POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .body(templates.get(template).execute(model));
    }

    // ---------- plumbing ----------

    private ResponseEntity<String> whenSignedIn(HttpServletRequest request,
                                                Function<DashboardSignIns.SignIn, ResponseEntity<String>> page) {
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
