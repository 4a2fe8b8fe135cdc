package io.paysession.query.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.paysession.api.settlement.FailedOperation;
import io.paysession.api.settlement.ReportRow;
import io.paysession.api.settlement.SettlementReport;
import io.paysession.api.wire.PaymentJson;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reconciliation report as JSON (the admin API's default) or CSV (for spreadsheets and accounting), both
 * written by Jackson from the records below; amounts in minor units.
 */
public final class ReportFormats {

    private static final ObjectMapper JSON = PaymentJson.newObjectMapper();
    private static final CsvMapper CSV = new CsvMapper();
    private static final CsvSchema CSV_SCHEMA = CSV.schemaFor(CsvLine.class).withHeader();

    private ReportFormats() {
    }

    /** The report as the admin API answers it under {@code report}. */
    public static ObjectNode json(SettlementReport report) {
        return JSON.valueToTree(JsonReport.of(report));
    }

    /**
     * The report as CSV with one header ({@link CsvLine}): a {@code row} line per report row, a {@code total} line
     * per currency, a {@code failed} line per failed or cancelled operation, and a last {@code position} line;
     * the columns a kind of line does not use are empty. Fields are quoted where they need it (RFC 4180).
     */
    public static String csv(SettlementReport report) {
        List<CsvLine> lines = new ArrayList<>();
        report.rows().forEach(row -> lines.add(new CsvLine("row", day(row.day()), row.currency(), row.method(),
                row.operation(), row.count(), row.gross(), row.fees(), row.net(),
                row.ids() == null ? null : String.join(" ", row.ids()), null, null, null, null, null)));
        report.totals().forEach((currency, row) -> lines.add(new CsvLine("total", null, currency, null, null,
                row.count(), row.gross(), row.fees(), row.net(), null, null, null, null, null, null)));
        report.failures().forEach(failure -> lines.add(new CsvLine("failed", day(failure.day()), failure.currency(),
                failure.method(), failure.operation(), null, null, null, null, null, failure.sessionId(),
                failure.operationId(), failure.amount(), failure.errorCode(), null)));
        lines.add(new CsvLine("position", null, null, null, null, null, null, null, null, null, null, null, null, null,
                report.position()));
        try {
            return CSV.writer(CSV_SCHEMA).writeValueAsString(lines);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the report could not be written as CSV", e);
        }
    }

    private static String day(LocalDate day) {
        return day == null ? null : day.toString();
    }

    /** The CSV schema, for readers of the format (a header line, then lines of these columns). */
    public static CsvSchema csvSchema() {
        return CSV_SCHEMA;
    }

    /** One line of the CSV; {@code section} says which kind (row, total, failed, position). */
    @JsonPropertyOrder({"section", "day", "currency", "method", "operation", "count", "gross", "fees", "net", "ids",
            "session_id", "operation_id", "amount", "error_code", "position"})
    public record CsvLine(String section, String day, String currency, String method, String operation, Long count,
                          Long gross, Long fees, Long net, String ids,
                          @JsonProperty("session_id") String sessionId,
                          @JsonProperty("operation_id") String operationId, Long amount,
                          @JsonProperty("error_code") String errorCode, Long position) {
    }

    private record JsonReport(String project, LocalDate from, LocalDate to, long position, List<JsonRow> rows,
                              Map<String, Sums> totals, List<JsonFailure> failures) {

        static JsonReport of(SettlementReport report) {
            Map<String, Sums> totals = new LinkedHashMap<>();
            report.totals().forEach((currency, row) -> totals.put(currency, Sums.of(row)));
            return new JsonReport(report.project(), report.from(), report.to(), report.position(),
                    report.rows().stream().map(JsonRow::of).toList(), totals,
                    report.failures().stream().map(JsonFailure::of).toList());
        }
    }

    private record JsonRow(LocalDate day, String currency, String method, String operation, long count, long gross,
                           long fees, long net, @JsonInclude(JsonInclude.Include.NON_NULL) List<String> ids) {

        static JsonRow of(ReportRow row) {
            return new JsonRow(row.day(), row.currency(), row.method(), row.operation(), row.count(), row.gross(),
                    row.fees(), row.net(), row.ids());
        }
    }

    private record Sums(long count, long gross, long fees, long net) {

        static Sums of(ReportRow row) {
            return new Sums(row.count(), row.gross(), row.fees(), row.net());
        }
    }

    /** A failed operation; its currency and amount only when it had an amount. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record JsonFailure(LocalDate day, String method, String operation,
                               @JsonProperty("session_id") String sessionId,
                               @JsonProperty("operation_id") String operationId,
                               @JsonProperty("error_code") String errorCode, String currency, Long amount) {

        static JsonFailure of(FailedOperation failure) {
            boolean amount = failure.amount() != null;
            return new JsonFailure(failure.day(), failure.method(), failure.operation(), failure.sessionId(),
                    failure.operationId(), failure.errorCode(), amount ? failure.currency() : null,
                    amount ? failure.amount() : null);
        }
    }
}
