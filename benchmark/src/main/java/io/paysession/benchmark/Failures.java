package io.paysession.benchmark;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Failures by kind (HTTP status and error code, missing webhook, bad signature), never with a body. */
final class Failures {

    private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();

    void add(String kind) {
        add(kind, 1);
    }

    void add(String kind, long count) {
        if (count > 0) {
            byKind.computeIfAbsent(kind, k -> new LongAdder()).add(count);
        }
    }

    long total() {
        return byKind.values().stream().mapToLong(LongAdder::sum).sum();
    }

    Map<String, Long> byKind() {
        Map<String, Long> sorted = new TreeMap<>();
        byKind.forEach((kind, count) -> sorted.put(kind, count.sum()));
        return sorted;
    }
}
