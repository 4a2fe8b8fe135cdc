package io.paysession.gateway.http.admin;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.gateway.audit.AuditChain;
import io.paysession.gateway.audit.AuditExport;
import io.paysession.gateway.security.AdminToken;
import io.paysession.gateway.security.ServiceKeyStore;
import io.paysession.query.audit.StoredEvents;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * {@code GET /admin/v1/audit/export?from=&to=&previous_head=}: the events recorded in {@code [from, to)} as JSON lines
 * in a hash chain, ending with a head the service key signs (docs/audit.md, "An export an auditor can prove").
 * Streamed: the answer starts before the last event is read, on the request's own thread. {@code previous_head} is the head hash of the export
 * before, so that consecutive exports chain; without it the chain starts at 64 zeros.
 */
@RestController
public class AdminAuditExportController {

    static final MediaType JSON_LINES = new MediaType("application", "x-ndjson", StandardCharsets.UTF_8);

    private final AdminToken adminToken;
    private final StoredEvents events;
    private final ServiceKeyStore serviceKey;

    public AdminAuditExportController(AdminToken adminToken, StoredEvents events, ServiceKeyStore serviceKey) {
        this.adminToken = adminToken;
        this.events = events;
        this.serviceKey = serviceKey;
    }

    @GetMapping("/admin/v1/audit/export")
    public void export(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                       @RequestParam(name = "from", required = false) String from,
                       @RequestParam(name = "to", required = false) String to,
                       @RequestParam(name = "previous_head", required = false) String previousHead,
                       HttpServletResponse response) throws IOException {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
        Instant start = instant(from, "from");
        Instant end = instant(to, "to");
        if (!start.isBefore(end)) {
            throw PaymentsException.invalidRequest("from must be before to");
        }
        String continues = previousHead == null ? AuditChain.GENESIS : previousHead;
        if (!continues.matches("[0-9a-f]{64}")) {
            throw PaymentsException.invalidRequest("previous_head must be a head hash: 64 lower-case hex digits");
        }
        AuditExport export = new AuditExport(events, new AuditExport.Signer(serviceKey.keyId(), serviceKey::sign),
                Clock.systemUTC());
        // written on the request's own thread as the events are read: no async time-out on a long period
        response.setStatus(200);
        response.setContentType(JSON_LINES.toString());
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"audit-" + start + "-" + end
                + ".jsonl\"");
        Writer writer = new BufferedWriter(new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8));
        export.write(start, end, continues, writer);
        writer.flush();
    }

    private static Instant instant(String text, String name) {
        if (text == null || text.isBlank()) {
            throw PaymentsException.invalidRequest(name + " is required: an ISO-8601 instant, as 2026-11-27T00:00:00Z");
        }
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw PaymentsException.invalidRequest(name + " must be an ISO-8601 instant, as 2026-11-27T00:00:00Z");
        }
    }
}
