package io.paysession.api.projection;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The differences a rebuild found, at most {@link #MAX} of them. Rows are compared as a table's rows: those only
 * the live table holds and those only the rebuild holds, each keyed by its first column; a key on both sides is
 * one difference naming the columns that differ.
 */
public final class RebuildDifferences {

    public static final int MAX = 100;

    private final List<String> differences = new ArrayList<>();

    public void add(String difference) {
        if (differences.size() < MAX) {
            differences.add(difference);
        }
    }

    /**
     * {@code onlyLive}: the live rows (up to the rebuild's position) the rebuild does not hold as they are;
     * {@code onlyRebuilt}: the rebuilt rows the live table does not hold as they are.
     */
    public void compareRows(String what, List<Map<String, Object>> onlyLive, List<Map<String, Object>> onlyRebuilt) {
        Map<String, Map<String, Object>> rebuilt = byKey(onlyRebuilt);
        byKey(onlyLive).forEach((key, row) -> {
            Map<String, Object> other = rebuilt.remove(key);
            if (other == null) {
                add(what + " " + key + ": in the live table, not in the rebuild");
            } else {
                List<String> differing = new ArrayList<>();
                row.forEach((column, value) -> {
                    if (!Objects.equals(value, other.get(column))) {
                        differing.add(column);
                    }
                });
                add(what + " " + key + ": " + String.join(", ", differing)
                        + " differ between the live table and the rebuild");
            }
        });
        rebuilt.keySet().forEach(key -> add(what + " " + key + ": in the rebuild, not in the live table"));
    }

    public void clear() {
        differences.clear();
    }

    public boolean isEmpty() {
        return differences.isEmpty();
    }

    public List<String> list() {
        return List.copyOf(differences);
    }

    private static Map<String, Map<String, Object>> byKey(List<Map<String, Object>> rows) {
        Map<String, Map<String, Object>> keyed = new LinkedHashMap<>();
        for (Map<String, Object> row : rows) {
            keyed.put(String.valueOf(row.values().iterator().next()), row);
        }
        return keyed;
    }
}
