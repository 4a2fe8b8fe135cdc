package io.paysession.gateway.audit;

import io.paysession.api.error.PaymentsException;
import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionId;
import io.paysession.query.audit.ProjectionReplay;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * The arguments of the audit operations, read the same way by the admin API and the command line; a bad
 * one is an {@code invalid_request} naming it.
 */
public final class AuditArguments {

    /** A report spans at most this many UTC days. */
    public static final int MAX_DAYS = 366;

    private AuditArguments() {
    }

    public record DateRange(LocalDate from, LocalDate to) {
    }

    public static SessionId session(String text) {
        if (text == null) {
            throw PaymentsException.invalidRequest("session_id is required");
        }
        return SessionId.parse(text).orElseThrow(() ->
                PaymentsException.invalidRequest("session_id must be a session id (ps_ and a number)"));
    }

    public static String project(String text) {
        if (text == null || text.isBlank()) {
            throw PaymentsException.invalidRequest("project is required");
        }
        if (!PartnerId.PROJECT.matcher(text).matches()) {
            throw PaymentsException.invalidRequest(
                    "project must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        return text;
    }

    public static DateRange range(String from, String to) {
        LocalDate first = day("from", from);
        LocalDate last = day("to", to);
        if (last.isBefore(first)) {
            throw PaymentsException.invalidRequest("to must not be before from");
        }
        if (ChronoUnit.DAYS.between(first, last) >= MAX_DAYS) {
            throw PaymentsException.invalidRequest("a report spans at most " + MAX_DAYS + " days");
        }
        return new DateRange(first, last);
    }

    private static LocalDate day(String name, String text) {
        if (text == null) {
            throw PaymentsException.invalidRequest(name + " is required (a UTC day, yyyy-mm-dd)");
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw PaymentsException.invalidRequest(name + " must be a UTC day, yyyy-mm-dd");
        }
    }

    public static Instant instant(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw PaymentsException.invalidRequest("at must be an ISO-8601 instant, as 2026-11-23T10:15:30.123Z");
        }
    }

    /** An audit export's period {@code [from, to)} and the head it continues ({@link AuditChain#GENESIS} without one). */
    public record ExportPeriod(Instant from, Instant to, String previousHead) {
    }

    public static ExportPeriod exportPeriod(String from, String to, String previousHead) {
        Instant start = requiredInstant(from, "from");
        Instant end = requiredInstant(to, "to");
        if (!start.isBefore(end)) {
            throw PaymentsException.invalidRequest("from must be before to");
        }
        String continues = previousHead == null ? AuditChain.GENESIS : previousHead;
        if (!continues.matches("[0-9a-f]{64}")) {
            throw PaymentsException.invalidRequest("previous_head must be a head hash: 64 lower-case hex digits");
        }
        return new ExportPeriod(start, end, continues);
    }

    private static Instant requiredInstant(String text, String name) {
        if (text == null || text.isBlank()) {
            throw PaymentsException.invalidRequest(name + " is required: an ISO-8601 instant, as 2026-11-27T00:00:00Z");
        }
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw PaymentsException.invalidRequest(name + " must be an ISO-8601 instant, as 2026-11-27T00:00:00Z");
        }
    }

    public static Long position(String text) {
        if (text == null) {
            return null;
        }
        if (!text.matches("[0-9]{1,18}")) {
            throw PaymentsException.invalidRequest("position must be a global position (an integer from 0)");
        }
        return Long.parseLong(text);
    }

    public static ApiVersion version(String text) {
        if (text == null) {
            return null;
        }
        return ApiVersion.parse(text).orElseThrow(() -> PaymentsException.invalidRequest("version must be v1 or v2"));
    }

    /** {@code json} (the default) or {@code csv}. */
    public static boolean csv(String format) {
        if (format == null || format.equals("json")) {
            return false;
        }
        if (format.equals("csv")) {
            return true;
        }
        throw PaymentsException.invalidRequest("format must be json or csv");
    }

    public static boolean flag(String name, String text) {
        if (text == null || text.equals("false")) {
            return false;
        }
        if (text.equals("true") || text.isEmpty()) {
            return true;
        }
        throw PaymentsException.invalidRequest(name + " must be true or false");
    }

    /** The projections {@code text} names, of those the replay rebuilds. */
    public static java.util.List<ProjectionRebuild> projections(ProjectionReplay replay, String text) {
        try {
            return replay.select(text);
        } catch (IllegalArgumentException e) {
            throw PaymentsException.invalidRequest(e.getMessage());
        }
    }
}
