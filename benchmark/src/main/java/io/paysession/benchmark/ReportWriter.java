package io.paysession.benchmark;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The printed report and the same figures by name, for result.json. Missing figures print as "n/a". */
final class ReportWriter {

    private final StringBuilder text = new StringBuilder();
    private final Map<String, Object> figures = new LinkedHashMap<>();

    void section(String title) {
        text.append('\n').append("-- ").append(title).append(" --\n");
    }

    void line(String label, String value) {
        text.append(String.format(Locale.ROOT, "%-72s %s%n", label + ":", value));
        figures.put(label, value);
    }

    void number(String label, double value, int decimals, String unit) {
        String formatted = Double.isFinite(value)
                ? String.format(Locale.ROOT, "%." + decimals + "f", value) + (unit.isEmpty() ? "" : " " + unit)
                : "n/a";
        text.append(String.format(Locale.ROOT, "%-72s %s%n", label + ":", formatted));
        figures.put(label, Double.isFinite(value) ? value : null);
    }

    /** p50, p90, p99 and max of a histogram of microseconds, in milliseconds. */
    void latency(String label, Histogram micros, boolean withP90) {
        if (micros.getTotalCount() == 0) {
            line(label, "n/a (no calls measured)");
            return;
        }
        double p50 = micros.getValueAtPercentile(50) / 1000.0;
        double p90 = micros.getValueAtPercentile(90) / 1000.0;
        double p99 = micros.getValueAtPercentile(99) / 1000.0;
        double max = micros.getMaxValue() / 1000.0;
        String value = withP90
                ? String.format(Locale.ROOT, "p50 %.1f  p90 %.1f  p99 %.1f  max %.1f ms  (n=%d)", p50, p90, p99, max, micros.getTotalCount())
                : String.format(Locale.ROOT, "p50 %.1f  p99 %.1f  max %.1f ms  (n=%d)", p50, p99, max, micros.getTotalCount());
        text.append(String.format(Locale.ROOT, "%-72s %s%n", label + ":", value));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("p50_ms", p50);
        if (withP90) {
            values.put("p90_ms", p90);
        }
        values.put("p99_ms", p99);
        values.put("max_ms", max);
        values.put("count", micros.getTotalCount());
        figures.put(label, values);
    }

    void raw(String line) {
        text.append(line).append('\n');
    }

    String text() {
        return text.toString();
    }

    Map<String, Object> figures() {
        return figures;
    }
}
