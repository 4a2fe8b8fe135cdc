package io.paysession.query.audit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.settlement.FailedOperation;
import io.paysession.api.settlement.ReportRow;
import io.paysession.api.settlement.SettlementReport;

/** A reconciliation report as JSON (the admin API's default) or CSV (for spreadsheets and accounting). */
public final class ReportFormats {

    private ReportFormats() {
    }

    public static ObjectNode json(SettlementReport report) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("project", report.project());
        node.put("from", report.from().toString());
        node.put("to", report.to().toString());
        node.put("position", report.position());
        ArrayNode rows = node.putArray("rows");
        for (ReportRow row : report.rows()) {
            ObjectNode line = rows.addObject().put("day", row.day().toString()).put("currency", row.currency())
                    .put("method", row.method()).put("operation", row.operation());
            sums(line, row);
            if (row.ids() != null) {
                ArrayNode ids = line.putArray("ids");
                row.ids().forEach(ids::add);
            }
        }
        ObjectNode totals = node.putObject("totals");
        report.totals().forEach((currency, row) -> sums(totals.putObject(currency), row));
        ArrayNode failures = node.putArray("failures");
        for (FailedOperation failure : report.failures()) {
            ObjectNode line = failures.addObject().put("day", failure.day().toString()).put("method", failure.method())
                    .put("operation", failure.operation()).put("session_id", failure.sessionId())
                    .put("operation_id", failure.operationId()).put("error_code", failure.errorCode());
            if (failure.amount() != null) {
                line.put("currency", failure.currency()).put("amount", failure.amount());
            }
        }
        return node;
    }

    /** Rows, then a line per currency total, then the failed operations; amounts in minor units. */
    public static String csv(SettlementReport report) {
        StringBuilder csv = new StringBuilder("section,day,currency,method,operation,count,gross,fees,net,ids\n");
        for (ReportRow row : report.rows()) {
            csv.append("row,").append(row.day()).append(',').append(row.currency()).append(',').append(row.method())
                    .append(',').append(row.operation()).append(',').append(row.count()).append(',').append(row.gross())
                    .append(',').append(row.fees()).append(',').append(row.net()).append(',')
                    .append(row.ids() == null ? "" : String.join(" ", row.ids())).append('\n');
        }
        report.totals().forEach((currency, row) -> csv.append("total,,").append(currency).append(",,,")
                .append(row.count()).append(',').append(row.gross()).append(',').append(row.fees()).append(',')
                .append(row.net()).append(",\n"));
        csv.append("\nsection,day,method,operation,session_id,operation_id,currency,amount,error_code\n");
        for (FailedOperation failure : report.failures()) {
            csv.append("failed,").append(failure.day()).append(',').append(failure.method()).append(',')
                    .append(failure.operation()).append(',').append(failure.sessionId()).append(',')
                    .append(failure.operationId()).append(',').append(failure.currency() == null ? "" : failure.currency())
                    .append(',').append(failure.amount() == null ? "" : failure.amount()).append(',')
                    .append(failure.errorCode()).append('\n');
        }
        csv.append("\nposition,").append(report.position()).append('\n');
        return csv.toString();
    }

    private static void sums(ObjectNode node, ReportRow row) {
        node.put("count", row.count()).put("gross", row.gross()).put("fees", row.fees()).put("net", row.net());
    }
}
