package io.paysession.gateway;

import io.paysession.gateway.audit.AuditCommandLine;
import io.paysession.gateway.preload.PreloadCommandLine;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication(scanBasePackages = "io.paysession")
@ConfigurationPropertiesScan("io.paysession.gateway")
public class PaymentSessionServiceApplication {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("audit")) {
            AuditCommandLine.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("preload")) {
            PreloadCommandLine.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        System.setProperty("disable-axoniq-console-message", "true");
        // a payment backend does not report to a vendor's server (Axon's update checker, on by default)
        if (System.getProperty("axoniq.update-checker.disabled") == null) {
            System.setProperty("axoniq.update-checker.disabled", "true");
        }
        SpringApplication.run(PaymentSessionServiceApplication.class, args);
    }
}
