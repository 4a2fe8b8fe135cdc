package io.paysession.api.settlement;

import java.time.LocalDate;
import java.util.List;

/** One line of a reconciliation report: a day, currency, method and operation, summed. */
public record ReportRow(LocalDate day, String currency, String method, String operation, long count, long gross,
                        long fees, long net, List<String> ids) {

    public String key() {
        return day + "/" + currency + "/" + method + "/" + operation;
    }
}
