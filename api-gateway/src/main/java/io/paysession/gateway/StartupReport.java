package io.paysession.gateway;

import io.paysession.command.rails.RailSelection;
import io.paysession.gateway.cluster.NodeRolesConfiguration;
import io.paysession.gateway.infra.DataDirectory;
import io.paysession.gateway.partners.DemoPartner;
import io.paysession.gateway.security.AdminToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Once the service listens: registers the demo partner and prints how to reach the service. */
@Component
public class StartupReport {

    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);

    private final DemoPartner demoPartner;
    private final AdminToken adminToken;
    private final DataDirectory dataDirectory;
    private final RailSelection rails;
    private final NodeRolesConfiguration.ThisNode node;

    public StartupReport(DemoPartner demoPartner, AdminToken adminToken, DataDirectory dataDirectory,
                         RailSelection rails, NodeRolesConfiguration.ThisNode node) {
        this.demoPartner = demoPartner;
        this.adminToken = adminToken;
        this.dataDirectory = dataDirectory;
        this.rails = rails;
        this.node = node;
    }

    @EventListener
    public void onReady(ApplicationReadyEvent event) {
        if (!(event.getApplicationContext() instanceof WebServerApplicationContext web)) {
            return;
        }
        int port = web.getWebServer().getPort();
        StringBuilder report = new StringBuilder()
                .append("\n  Payment Session Service is ready on http://localhost:").append(port)
                .append("\n  data directory: ").append(dataDirectory.root())
                .append("\n  admin token:    ")
                .append(adminToken.wasGenerated()
                        ? adminToken.value() + "  (generated, kept in " + dataDirectory.resolve("admin-token") + ")"
                        : "from PAYMENTS_ADMIN_TOKEN")
                .append("\n  rails:          ").append(rails.describe())
                .append("\n  roles:          ").append(node.describe());
        demoPartner.ensureRegistered(port).ifPresent(demo -> report
                .append("\n  demo partner:   project ").append(demo.project())
                .append(", private key ").append(demo.privateKey())
                .append("\n  demo webhooks:  ").append(demo.webhookUrl())
                .append("\n  widget demo:    http://localhost:").append(port).append("/widget/demo"));
        report.append("\n  service key:    http://localhost:").append(port).append("/service/public-key");
        log.info("{}", report);
        if (rails.sandboxInProduction()) {
            log.warn(RailSelection.sandboxWarning());
        }
    }
}
