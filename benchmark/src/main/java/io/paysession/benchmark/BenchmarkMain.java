package io.paysession.benchmark;

/**
 * {@code java -jar payments-benchmark.jar [--duration=60s] [--concurrency=16] [--db-url=...]}: runs one
 * benchmark and prints its report. Exit code 0 only if lifecycles completed and nothing failed.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        // zonky logs through SLF4J; this jar brings no logging backend, and says so only on errors
        System.setProperty("slf4j.internal.verbosity", System.getProperty("slf4j.internal.verbosity", "ERROR"));
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(BenchmarkOptions.USAGE);
            System.exit(2);
            return;
        }
        Benchmark.Outcome outcome = new Benchmark(options, System.out).run();
        System.exit(outcome.passed() ? 0 : 1);
    }
}
