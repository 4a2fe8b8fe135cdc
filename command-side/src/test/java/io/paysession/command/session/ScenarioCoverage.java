package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.SessionEvent;
import io.paysession.command.session.SessionLifecycle.Trigger;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the runs of a property exercised: rows of the table taken, refusal codes given and event types stored.
 * A property that passes without having reached these proves little; the test asserts on them.
 */
final class ScenarioCoverage {

    private final Map<String, Integer> rowsTaken = new TreeMap<>();
    private final Map<ErrorCode, Integer> refusals = new EnumMap<>(ErrorCode.class);
    private final Map<String, Integer> eventTypes = new TreeMap<>();
    private final Set<Integer> lengths = new HashSet<>();
    private int runs;
    private long steps;

    static String row(OperationState from, Trigger trigger) {
        return (from == null ? "NONE" : from.name()) + " --" + trigger + "->";
    }

    void took(OperationState from, Trigger trigger) {
        rowsTaken.merge(row(from, trigger), 1, Integer::sum);
    }

    void answered(ErrorCode refusal, List<SessionEvent> stored) {
        if (refusal != null) {
            refusals.merge(refusal, 1, Integer::sum);
        }
        stored.forEach(event -> eventTypes.merge(SessionStream.name(event), 1, Integer::sum));
    }

    void ran(int length) {
        runs++;
        steps += length;
        lengths.add(length);
    }

    Set<String> rowsTaken() {
        return rowsTaken.keySet();
    }

    Set<ErrorCode> refusals() {
        return refusals.keySet();
    }

    Set<String> eventTypes() {
        return eventTypes.keySet();
    }

    int runs() {
        return runs;
    }

    Set<Integer> lengths() {
        return lengths;
    }

    @Override
    public String toString() {
        return runs + " runs, " + steps + " steps (lengths " + lengths.stream().mapToInt(Integer::intValue).min()
                .orElse(0) + ".." + lengths.stream().mapToInt(Integer::intValue).max().orElse(0) + "), "
                + rowsTaken.size() + " rows taken (the rarest " + rarest(rowsTaken) + "), refusals " + refusals + ", "
                + eventTypes.size() + " event types (the rarest " + rarest(eventTypes) + ")";
    }

    private static String rarest(Map<String, Integer> counts) {
        return counts.entrySet().stream().min(Map.Entry.comparingByValue())
                .map(entry -> entry.getKey() + " " + entry.getValue() + " times").orElse("none");
    }
}
