package io.paysession.api.settlement;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A project's reconciliation report for UTC days {@code from} to {@code to} (both included): rows per day,
 * currency, method and operation, totals per currency, the failed operations, and the store position the
 * report was computed at.
 */
public record SettlementReport(String project, LocalDate from, LocalDate to, long position, List<ReportRow> rows,
                               Map<String, ReportRow> totals, List<FailedOperation> failures) {

    /** Sums entries into rows (keyed and ordered by day, currency, method, operation) and totals per currency. */
    public static SettlementReport of(String project, LocalDate from, LocalDate to, long position,
                                      List<SettlementEntry> entries, List<FailedOperation> failures, boolean withIds) {
        Map<String, List<SettlementEntry>> grouped = new TreeMap<>();
        for (SettlementEntry entry : entries) {
            if (!entry.project().equals(project) || entry.day().isBefore(from) || entry.day().isAfter(to)) {
                continue;
            }
            grouped.computeIfAbsent(entry.day() + "/" + entry.currency() + "/" + entry.method() + "/"
                    + entry.operation().wireName(), key -> new ArrayList<>()).add(entry);
        }
        List<ReportRow> rows = new ArrayList<>();
        Map<String, long[]> sums = new TreeMap<>();
        for (List<SettlementEntry> group : grouped.values()) {
            SettlementEntry first = group.get(0);
            long gross = group.stream().mapToLong(SettlementEntry::gross).sum();
            long fees = group.stream().mapToLong(SettlementEntry::fee).sum();
            long net = group.stream().mapToLong(SettlementEntry::net).sum();
            List<String> ids = withIds ? group.stream().map(SettlementEntry::operationId).sorted().toList() : null;
            rows.add(new ReportRow(first.day(), first.currency(), first.method(), first.operation().wireName(),
                    group.size(), gross, fees, net, ids));
            long[] sum = sums.computeIfAbsent(first.currency(), currency -> new long[4]);
            sum[0] += group.size();
            sum[1] += gross;
            sum[2] += fees;
            sum[3] += net;
        }
        Map<String, ReportRow> totals = new LinkedHashMap<>();
        sums.forEach((currency, sum) -> totals.put(currency,
                new ReportRow(null, currency, null, null, sum[0], sum[1], sum[2], sum[3], null)));
        List<FailedOperation> listed = failures.stream()
                .filter(failure -> failure.project().equals(project) && !failure.day().isBefore(from)
                        && !failure.day().isAfter(to))
                .sorted(Comparator.comparing(FailedOperation::day).thenComparing(FailedOperation::globalIndex)
                        .thenComparing(FailedOperation::entryId))
                .toList();
        return new SettlementReport(project, from, to, position, rows, totals, listed);
    }
}
