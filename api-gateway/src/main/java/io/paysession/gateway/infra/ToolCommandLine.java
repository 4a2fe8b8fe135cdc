package io.paysession.gateway.infra;

import picocli.CommandLine;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * What the jar's tools ({@code audit}, {@code preload}) share: logging on standard error only (warnings and the
 * database used), and picocli set up with their exit codes (0 done or help, 2 a usage error).
 */
public final class ToolCommandLine {

    public static final int OK = 0;
    public static final int USAGE_ERROR = 2;

    private ToolCommandLine() {
    }

    /** What tells a tool that the service keeps its events in Axon Server. */
    public static final String AXON_SERVER_SETTINGS = "SPRING_PROFILES_ACTIVE with axonserver, or AXON_AXONSERVER_ENABLED=true";

    /**
     * Whether {@code environment} runs the service on Axon Server (the {@code axonserver} profile, or the connector
     * switched on): the tools read and write Axon's JDBC store in PostgreSQL only, which then holds no events.
     */
    public static boolean onAxonServer(Map<String, String> environment) {
        String profiles = environment.getOrDefault("SPRING_PROFILES_ACTIVE", "");
        return "true".equalsIgnoreCase(environment.getOrDefault("AXON_AXONSERVER_ENABLED", "").strip())
                || Arrays.stream(profiles.split(",")).map(String::strip).anyMatch("axonserver"::equals);
    }

    /** Standard output keeps only what the tool prints; unless another logging configuration is given. */
    public static void quietLogging() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "audit-logback.xml");
        }
    }

    /** {@code command}'s picocli command line, writing to {@code out} and {@code err}, failing through {@code failure}. */
    public static CommandLine of(Object command, PrintStream out, PrintStream err,
                                 CommandLine.IExecutionExceptionHandler failure) {
        CommandLine commandLine = new CommandLine(command)
                .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
                .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
                .setExecutionExceptionHandler(failure);
        commandLine.getCommandSpec().exitCodeOnUsageHelp(OK).exitCodeOnInvalidInput(USAGE_ERROR);
        return commandLine;
    }
}
