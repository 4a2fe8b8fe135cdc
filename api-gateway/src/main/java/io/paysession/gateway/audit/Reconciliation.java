package io.paysession.gateway.audit;

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
        return SettlementReport.of(project, from, to, position, live.entries(project, from, to),
                live.failures(project, from, to), withIds);
    }

    public Verification verify(String project, LocalDate from, LocalDate to) {
        SettlementReport stored = report(project, from, to, true);
        SettlementReport recomputed = recompute(project, from, to, stored.position());
        List<String> differences = compare(stored, recomputed);
        return new Verification(stored.position(), differences.isEmpty(), differences);
    }

    /** The report from the event store alone, up to {@code position}: only the project's sessions are folded. */
    SettlementReport recompute(String project, LocalDate from, LocalDate to, long position) {
        Map<String, SessionView> views = new HashMap<>();
        Set<String> others = new HashSet<>();
        List<SettlementEntry> entries = new ArrayList<>();
        List<FailedOperation> failures = new ArrayList<>();
        events.forEach(position, stored -> {
            if (others.contains(stored.aggregateId()) || !stored.aggregateId().startsWith("ps_")) {
                return;
            }
            if (!(events.payload(stored) instanceof SessionEvent event)) {
                return;
            }
            if (event instanceof SessionCreatedEvent created && !created.project().equals(project)) {
                others.add(stored.aggregateId());
                return;
            }
            SessionView before = views.get(stored.aggregateId());
            SessionView after = SessionViewFold.apply(before, event, stored.sequence());
            views.put(stored.aggregateId(), after);
            SettlementRules.Derived derived = SettlementRules.derive(event, before, after, stored.eventId(),
                    stored.globalIndex());
            entries.addAll(derived.entries());
            failures.addAll(derived.failures());
        });
        return SettlementReport.of(project, from, to, position, entries, failures, true);
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
