package io.paysession.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * CPU time and peak memory of processes, read from Linux's {@code /proc}. Anything unreadable (another
 * operating system, a process that has gone) is empty rather than a guess.
 */
final class ProcStats {

    private static final long TICKS_PER_SECOND = clockTicks();

    private ProcStats() {
    }

    /** User plus system CPU seconds of the process (all its threads). */
    static OptionalDouble cpuSeconds(long pid) {
        long[] times = times(pid);
        return times == null ? OptionalDouble.empty() : OptionalDouble.of((double) (times[0] + times[1]) / TICKS_PER_SECOND);
    }

    /**
     * CPU seconds of a process and everything under it: its own time, the time of children it has already
     * reaped (a PostgreSQL backend that ended), and the time of its live descendants. Summed this way the
     * figure does not jump when a child ends during the measurement.
     */
    static OptionalDouble treeCpuSeconds(long rootPid) {
        long[] root = times(rootPid);
        if (root == null) {
            return OptionalDouble.empty();
        }
        long ticks = root[0] + root[1] + root[2] + root[3];
        for (ProcessHandle child : ProcessHandle.of(rootPid).map(handle -> handle.descendants().toList()).orElse(List.of())) {
            long[] times = times(child.pid());
            if (times != null) {
                ticks += times[0] + times[1];
            }
        }
        return OptionalDouble.of((double) ticks / TICKS_PER_SECOND);
    }

    /**
     * Busy CPU seconds of the whole machine, all processes (first line of /proc/stat: user, nice, system,
     * irq, softirq; not idle, iowait or steal), to tell how much of the machine other work took.
     */
    static OptionalDouble machineBusySeconds() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < fields.length && i <= 7; i++) { // user to softirq; steal is not ours
                if (i != 4 && i != 5) { // idle, iowait
                    busy += Long.parseLong(fields[i]);
                }
            }
            return OptionalDouble.of((double) busy / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return OptionalDouble.empty();
        }
    }

    /** Peak resident set size (VmHWM) in KiB: the most physical memory the process has held at once. */
    static OptionalLong peakResidentKiB(long pid) {
        return statusField(pid, "VmHWM:");
    }

    static OptionalLong residentKiB(long pid) {
        return statusField(pid, "VmRSS:");
    }

    private static OptionalLong statusField(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith(field)) {
                    return OptionalLong.of(Long.parseLong(line.substring(field.length()).replace("kB", "").trim()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone or not Linux
        }
        return OptionalLong.empty();
    }

    /** utime, stime, cutime, cstime in clock ticks (fields 14 to 17 of /proc/PID/stat), or null. */
    private static long[] times(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            // the command name (field 2) may contain spaces and parentheses; fields after it are plain
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            // fields[0] is field 3 (state), so field n is fields[n - 3]
            return new long[]{Long.parseLong(fields[11]), Long.parseLong(fields[12]),
                    Long.parseLong(fields[13]), Long.parseLong(fields[14])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static long clockTicks() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (getconf.waitFor() == 0) {
                return Long.parseLong(out);
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100; // the value on every common Linux build
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    static OptionalLong memoryTotalKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("MemTotal:")) {
                    return OptionalLong.of(Long.parseLong(line.substring(9).replace("kB", "").trim()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return OptionalLong.empty();
    }
}
