package io.paysession.benchmark;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * {@code java -jar payments-benchmark.jar [--duration=60s] [--concurrency=16] [--db-url=...]}: runs one
 * benchmark and prints its report. Exit code 0 only if lifecycles completed and nothing failed; 2 for a usage
 * error; {@code --help} prints the options.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    /** What runs once the options are known: the benchmark, or a stand-in in tests. Answers the exit code. */
    @FunctionalInterface
    interface Run {
        int run(BenchmarkOptions options) throws Exception;
    }

    public static void main(String[] args) {
        // zonky logs through SLF4J; this jar brings no logging backend, and says so only on errors
        System.setProperty("slf4j.internal.verbosity", System.getProperty("slf4j.internal.verbosity", "ERROR"));
        int exitCode = execute(new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8),
                options -> new Benchmark(options, System.out).run().passed() ? 0 : 1, args);
        System.exit(exitCode);
    }

    /**
     * Parses {@code args} and runs: {@code --help} prints the usage to {@code out} (exit 0); an unknown option, a
     * bad value or a contradiction prints what is wrong and the usage to {@code err} (exit 2) and runs nothing.
     */
    static int execute(PrintWriter out, PrintWriter err, Run run, String... args) {
        BenchmarkOptions.Arguments arguments = new BenchmarkOptions.Arguments();
        CommandLine command = new CommandLine(arguments).setOut(out).setErr(err);
        command.setExecutionStrategy(parsed -> {
            Integer help = CommandLine.executeHelpRequest(parsed);
            if (help != null) {
                return help;
            }
            BenchmarkOptions options = arguments.options();
            try {
                return run.run(options);
            } catch (Exception e) {
                throw new CommandLine.ExecutionException(command, "the benchmark failed: " + e, e);
            }
        });
        return command.execute(args);
    }
}
