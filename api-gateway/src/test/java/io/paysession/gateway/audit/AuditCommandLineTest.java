package io.paysession.gateway.audit;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator sees before any database is touched: the usage on {@code --help}, and a usage error (exit 2,
 * docs/audit.md) for an unknown option or command, a missing argument or a bad value. The audit operations
 * themselves run in SessionAuditEndToEndTest against a running service.
 */
class AuditCommandLineTest {

    record Run(int exit, String out, String err) {
    }

    @Test
    void helpPrintsTheUsageWithEveryCommandAndExitsZero() {
        Run help = audit("--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Usage: audit", "history", "view", "report", "verify", "replay",
                "PAYMENTS_DB_URL", "Exit codes: 0 done, 1 failed, 2 bad arguments, 3 differences found");
        assertThat(audit("help", "report").out()).contains("--project=<p>", "--from=<day>", "--format=json|csv", "--ids");
        Run reportHelp = audit("report", "--help");
        assertThat(reportHelp.exit()).isZero();
        assertThat(reportHelp.out()).contains("Usage: audit report", "--project=<p>", "--db-url=<url>");
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithExitCodeTwo() {
        Run run = audit("report", "--project=shop", "--from=2026-11-01", "--to=2026-11-30", "--colour=red");

        assertThat(run.exit()).isEqualTo(AuditCommandLine.USAGE_ERROR).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--colour=red'", "Usage: audit report");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void noCommandAnUnknownCommandOrAMissingSessionAreUsageErrors() {
        Run none = audit();
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.out()).contains("Usage: audit");

        Run unknown = audit("rewind");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("rewind");

        Run missing = audit("history");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("<session_id>");
    }

    @Test
    void aBadValueIsRefusedWithItsDescriptionBeforeAnyDatabaseIsOpened() {
        Run run = audit("report", "--project=shop", "--from=2026-13-01", "--to=2026-11-30",
                "--db-url=jdbc:postgresql://127.0.0.1:1/none");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("from must be a UTC day, yyyy-mm-dd");
        assertThat(audit("view", "ps_1", "--version=v3").err()).contains("version must be v1 or v2");
    }

    private static Run audit(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new AuditCommandLine(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of()).run(args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
