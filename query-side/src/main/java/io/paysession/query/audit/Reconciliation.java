package io.paysession.query.audit;

import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import io.paysession.api.settlement.FailedOperation;
import io.paysession.api.settlement.ReportRow;
import io.paysession.api.settlement.SettlementEntry;
import io.paysession.api.settlement.SettlementReport;
import io.paysession.api.settlement.SettlementRules;
import io.paysession.query.settlement.SettlementStore;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The reconciliation report of the read model, and its verification: the same report recomputed by
 * folding the event store itself up to the position the read model has reached, which must match it
 * exactly. The settlement rules are one pure function used on both sides, so a difference means the read
 * model does not hold what the events say.
 */
public class Reconciliation {

    public record Verification(long position, boolean matches, List<String> differences) {
    }

    private final StoredEvents events;
    private final SettlementStore live;

    public Reconciliation(StoredEvents events, SettlementStore live) {
        this.events = events;
        this.live = live;
    }

    public SettlementReport report(String project, LocalDate from, LocalDate to, boolean withIds) {
        long position = live.position();
        // rows the processor commits after the position was read belong to a later report
        return SettlementReport.of(project, from, to, position,
                live.entries(project, from, to).stream().filter(entry -> entry.globalIndex() <= position).toList(),
                live.failures(project, from, to).stream().filter(failure -> failure.globalIndex() <= position).toList(),
                withIds);
    }

    /**
     * Recomputes the report from the event store up to the position the read model has reached and names
     * every difference: first the settled operations and failures that differ (the rows a report sums),
     * then, only when those agree, any row or total that still differs.
     */
    public Verification verify(String project, LocalDate from, LocalDate to) {
        long position = live.position();
        Ledger readModel = new Ledger(
                live.entries(project, from, to).stream().filter(entry -> entry.globalIndex() <= position).toList(),
                live.failures(project, from, to).stream().filter(failure -> failure.globalIndex() <= position).toList());
        Ledger eventStore = fold(project, position);
        List<String> differences = new ArrayList<>();
        compareEntries(readModel.entries(), within(eventStore.entries(), from, to), differences);
        compareFailures(readModel.failures(), withinFailures(eventStore.failures(), from, to), differences);
        if (differences.isEmpty()) {
            differences.addAll(compare(readModel.report(project, from, to, position), eventStore.report(project, from, to,
                    position)));
        }
        return new Verification(position, differences.isEmpty(), differences);
    }

    private record Ledger(List<SettlementEntry> entries, List<FailedOperation> failures) {
        SettlementReport report(String project, LocalDate from, LocalDate to, long position) {
            return SettlementReport.of(project, from, to, position, entries, failures, true);
        }
    }

    /** The report from the event store alone, up to {@code position}. */
    SettlementReport recompute(String project, LocalDate from, LocalDate to, long position) {
        return fold(project, position).report(project, from, to, position);
    }

    /**
     * Every settled operation and failure of the project's sessions, from the event store up to {@code position},
     * read session by session: one session is held at a time, whatever the store's size (the report sorts what it
     * lists, so the reading order does not show).
     */
    private Ledger fold(String project, long position) {
        String[] session = {null};
        SessionView[] view = {null};
        boolean[] other = {false};
        List<SettlementEntry> entries = new ArrayList<>();
        List<FailedOperation> failures = new ArrayList<>();
        events.forEachPageByAggregate(position, page -> page.forEach(stored -> {
            if (!stored.aggregateId().startsWith("ps_")) {
                return;
            }
            if (!stored.aggregateId().equals(session[0])) {
                session[0] = stored.aggregateId();
                view[0] = null;
                other[0] = false;
            }
            if (other[0] || !(events.payload(stored) instanceof SessionEvent event)) {
                return;
            }
            if (event instanceof SessionCreatedEvent created && !created.project().equals(project)) {
                other[0] = true;
                return;
            }
            SessionView before = view[0];
            SessionView after = SessionViewFold.apply(before, event, stored.sequence());
            view[0] = after;
            SettlementRules.Derived derived = SettlementRules.derive(event, before, after, stored.eventId(),
                    stored.globalIndex());
            entries.addAll(derived.entries());
            failures.addAll(derived.failures());
        }));
        return new Ledger(entries, failures);
    }

    private static List<SettlementEntry> within(List<SettlementEntry> entries, LocalDate from, LocalDate to) {
        return entries.stream().filter(entry -> !entry.day().isBefore(from) && !entry.day().isAfter(to)).toList();
    }

    private static List<FailedOperation> withinFailures(List<FailedOperation> failures, LocalDate from, LocalDate to) {
        return failures.stream().filter(failure -> !failure.day().isBefore(from) && !failure.day().isAfter(to)).toList();
    }

    private static void compareEntries(List<SettlementEntry> readModel, List<SettlementEntry> eventStore,
                                       List<String> differences) {
        Map<String, SettlementEntry> a = new HashMap<>();
        readModel.forEach(entry -> a.put(entry.entryId(), entry));
        Map<String, SettlementEntry> b = new HashMap<>();
        eventStore.forEach(entry -> b.put(entry.entryId(), entry));
        for (String id : new TreeSet<>(union(a.keySet(), b.keySet()))) {
            SettlementEntry live = a.get(id);
            SettlementEntry folded = b.get(id);
            if (live == null) {
                differences.add("entry " + id + " (" + describe(folded) + "): in the event store but not in the read model");
            } else if (folded == null) {
                differences.add("entry " + id + " (" + describe(live) + "): in the read model but not in the event store");
            } else if (!live.equals(folded)) {
                List<String> fields = new ArrayList<>();
                field(fields, "project", live.project(), folded.project());
                field(fields, "day", live.day(), folded.day());
                field(fields, "currency", live.currency(), folded.currency());
                field(fields, "method", live.method(), folded.method());
                field(fields, "operation", live.operation().wireName(), folded.operation().wireName());
                field(fields, "session", live.sessionId(), folded.sessionId());
                field(fields, "operation id", live.operationId(), folded.operationId());
                field(fields, "gross", live.gross(), folded.gross());
                field(fields, "fee", live.fee(), folded.fee());
                field(fields, "net", live.net(), folded.net());
                field(fields, "position", live.globalIndex(), folded.globalIndex());
                differences.add("entry " + id + " (" + folded.operation().wireName() + " " + folded.operationId() + "): "
                        + String.join("; ", fields));
            }
        }
    }

    private static void compareFailures(List<FailedOperation> readModel, List<FailedOperation> eventStore,
                                        List<String> differences) {
        Map<String, FailedOperation> a = new HashMap<>();
        readModel.forEach(failure -> a.put(failure.entryId(), failure));
        Map<String, FailedOperation> b = new HashMap<>();
        eventStore.forEach(failure -> b.put(failure.entryId(), failure));
        for (String id : new TreeSet<>(union(a.keySet(), b.keySet()))) {
            FailedOperation live = a.get(id);
            FailedOperation folded = b.get(id);
            if (live == null) {
                differences.add("failure " + id + " (" + folded.operation() + " " + folded.operationId() + " "
                        + folded.errorCode() + "): in the event store but not in the read model");
            } else if (folded == null) {
                differences.add("failure " + id + " (" + live.operation() + " " + live.operationId() + " "
                        + live.errorCode() + "): in the read model but not in the event store");
            } else if (!live.equals(folded)) {
                differences.add("failure " + id + ": read model " + live + ", event store " + folded);
            }
        }
    }

    private static String describe(SettlementEntry entry) {
        return entry.operation().wireName() + " " + entry.operationId() + " of " + entry.sessionId() + ", " + entry.day()
                + " " + entry.currency() + " " + entry.method() + " gross " + entry.gross() + " fee " + entry.fee()
                + " net " + entry.net();
    }

    private static void field(List<String> fields, String name, Object readModel, Object eventStore) {
        if (!Objects.equals(readModel, eventStore)) {
            fields.add(name + " " + readModel + " in the read model, " + eventStore + " in the event store");
        }
    }

    static List<String> compare(SettlementReport readModel, SettlementReport eventStore) {
        List<String> differences = new ArrayList<>();
        compareRows("row", index(readModel.rows()), index(eventStore.rows()), differences);
        Map<String, ReportRow> totalsA = new HashMap<>();
        readModel.totals().forEach((currency, row) -> totalsA.put(currency, row));
        Map<String, ReportRow> totalsB = new HashMap<>();
        eventStore.totals().forEach((currency, row) -> totalsB.put(currency, row));
        compareRows("total", totalsA, totalsB, differences);
        Map<String, FailedOperation> failuresA = new HashMap<>();
        readModel.failures().forEach(failure -> failuresA.put(failure.entryId(), failure));
        Map<String, FailedOperation> failuresB = new HashMap<>();
        eventStore.failures().forEach(failure -> failuresB.put(failure.entryId(), failure));
        for (String id : new TreeSet<>(union(failuresA.keySet(), failuresB.keySet()))) {
            FailedOperation a = failuresA.get(id);
            FailedOperation b = failuresB.get(id);
            if (a == null) {
                differences.add("failure " + id + ": in the event store (" + b.operationId() + " " + b.errorCode()
                        + ") but not in the read model");
            } else if (b == null) {
                differences.add("failure " + id + ": in the read model (" + a.operationId() + " " + a.errorCode()
                        + ") but not in the event store");
            } else if (!a.equals(b)) {
                differences.add("failure " + id + ": read model " + a + ", event store " + b);
            }
        }
        return differences;
    }

    private static void compareRows(String kind, Map<String, ReportRow> a, Map<String, ReportRow> b, List<String> out) {
        for (String key : new TreeSet<>(union(a.keySet(), b.keySet()))) {
            ReportRow readModel = a.get(key);
            ReportRow eventStore = b.get(key);
            if (readModel == null) {
                out.add(kind + " " + key + ": in the event store " + describe(eventStore) + " but not in the read model");
            } else if (eventStore == null) {
                out.add(kind + " " + key + ": in the read model " + describe(readModel) + " but not in the event store");
            } else {
                List<String> fields = new ArrayList<>();
                field(fields, "count", readModel.count(), eventStore.count());
                field(fields, "gross", readModel.gross(), eventStore.gross());
                field(fields, "fees", readModel.fees(), eventStore.fees());
                field(fields, "net", readModel.net(), eventStore.net());
                if (!Objects.equals(readModel.ids(), eventStore.ids())) {
                    fields.add("ids " + readModel.ids() + " in the read model, " + eventStore.ids() + " in the event store");
                }
                if (!fields.isEmpty()) {
                    out.add(kind + " " + key + ": " + String.join("; ", fields));
                }
            }
        }
    }

    private static void field(List<String> fields, String name, long readModel, long eventStore) {
        if (readModel != eventStore) {
            fields.add(name + " " + readModel + " in the read model, " + eventStore + " in the event store");
        }
    }

    private static String describe(ReportRow row) {
        return "(count " + row.count() + ", gross " + row.gross() + ", fees " + row.fees() + ", net " + row.net() + ")";
    }

    private static Map<String, ReportRow> index(List<ReportRow> rows) {
        Map<String, ReportRow> byKey = new HashMap<>();
        rows.forEach(row -> byKey.put(row.key(), row));
        return byKey;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }
}
