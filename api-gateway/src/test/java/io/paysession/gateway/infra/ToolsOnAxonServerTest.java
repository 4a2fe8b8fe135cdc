package io.paysession.gateway.infra;

import io.paysession.gateway.audit.AuditCommandLine;
import io.paysession.gateway.preload.PreloadCommandLine;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The preload and the audit command line work on Axon's JDBC store in PostgreSQL: where the environment keeps the
 * events in Axon Server they refuse before touching any database, instead of filling or reading a table the service
 * does not read.
 */
class ToolsOnAxonServerTest {

    @Test
    void theEnvironmentSaysAxonServerByTheProfileOrTheConnectorsSwitch() {
        assertThat(ToolCommandLine.onAxonServer(Map.of("SPRING_PROFILES_ACTIVE", "production, axonserver"))).isTrue();
        assertThat(ToolCommandLine.onAxonServer(Map.of("AXON_AXONSERVER_ENABLED", "TRUE"))).isTrue();
        assertThat(ToolCommandLine.onAxonServer(Map.of("SPRING_PROFILES_ACTIVE", "production"))).isFalse();
        assertThat(ToolCommandLine.onAxonServer(Map.of("SPRING_PROFILES_ACTIVE", "axonserverless",
                "AXON_AXONSERVER_ENABLED", "false"))).isFalse();
        assertThat(ToolCommandLine.onAxonServer(Map.of())).isFalse();
    }

    @Test
    void thePreloadAndTheAuditRefuseOnAxonServerAndTouchNoDatabase() throws Exception {
        Path data = Files.createTempDirectory("tools-axonserver");
        Map<String, String> environment = Map.of("SPRING_PROFILES_ACTIVE", "production,axonserver",
                "PAYMENTS_DATA_DIR", data.toString());
        ByteArrayOutputStream preloadErrors = new ByteArrayOutputStream();
        ByteArrayOutputStream auditErrors = new ByteArrayOutputStream();

        int preload = new PreloadCommandLine(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(preloadErrors, true, StandardCharsets.UTF_8), environment).run(new String[]{"--sessions=1"});
        int audit = new AuditCommandLine(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(auditErrors, true, StandardCharsets.UTF_8), environment).run(new String[]{"history", "ps_1"});

        assertThat(preload).isEqualTo(1);
        assertThat(preloadErrors.toString(StandardCharsets.UTF_8)).contains("preload refused", "Axon Server");
        assertThat(audit).isEqualTo(1);
        assertThat(auditErrors.toString(StandardCharsets.UTF_8)).contains("Axon Server", "admin API");
        try (var files = Files.list(data)) {
            assertThat(files).as("no embedded PostgreSQL started in the data directory").isEmpty();
        }
    }
}
