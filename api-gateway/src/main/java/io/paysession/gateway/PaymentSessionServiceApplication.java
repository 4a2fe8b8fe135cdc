package io.paysession.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication(scanBasePackages = "io.paysession")
@ConfigurationPropertiesScan("io.paysession.gateway")
public class PaymentSessionServiceApplication {

    public static void main(String[] args) {
        System.setProperty("disable-axoniq-console-message", "true");
        SpringApplication.run(PaymentSessionServiceApplication.class, args);
    }
}
