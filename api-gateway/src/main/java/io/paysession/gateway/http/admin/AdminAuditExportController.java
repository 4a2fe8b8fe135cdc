package io.paysession.gateway.http.admin;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.gateway.audit.AuditArguments;
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
        AuditArguments.ExportPeriod period = AuditArguments.exportPeriod(from, to, previousHead);
        Instant start = period.from();
        Instant end = period.to();
        // one key for the whole export: the head names the key that signs it
        ServiceKeyStore.SigningKey key = serviceKey.current();
        AuditExport export = new AuditExport(events, new AuditExport.Signer(key.keyId(), key::sign), Clock.systemUTC());
        // written on the request's own thread as the events are read: no async time-out on a long period
        response.setStatus(200);
        response.setContentType(JSON_LINES.toString());
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"audit-" + start + "-" + end
                + ".jsonl\"");
        Writer writer = new BufferedWriter(new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8));
        export.write(start, end, period.previousHead(), writer);
        writer.flush();
    }
}
