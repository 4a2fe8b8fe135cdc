package io.paysession.gateway.partners;

import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.partner.PartnerView;
import io.paysession.gateway.infra.DataDirectory;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.Optional;

/**
 * The partner that exists on the embedded default's first start, so that the service can be tried at
 * once: its key pair is generated into the data directory (the README signs requests with it) and its
 * webhooks go to the sandbox inbox of this service unless configured otherwise.
 */
@Component
public class DemoPartner {

    private final boolean enabled;
    private final String project;
    private final String configuredWebhookUrl;
    private final DataDirectory dataDirectory;
    private final PartnerRegistration registration;
    private final PartnerDirectory directory;

    public DemoPartner(@Value("${payments.demo-partner.enabled:true}") boolean enabled,
                       @Value("${payments.demo-partner.project:demo}") String project,
                       @Value("${payments.demo-partner.webhook-url:}") String configuredWebhookUrl,
                       DataDirectory dataDirectory, PartnerRegistration registration, PartnerDirectory directory) {
        this.enabled = enabled;
        this.project = project;
        this.configuredWebhookUrl = configuredWebhookUrl;
        this.dataDirectory = dataDirectory;
        this.registration = registration;
        this.directory = directory;
    }

    public record Registered(String project, Path privateKey, String webhookUrl) {
    }

    /** The demo partner's project; empty when it is disabled (always in the production profile). */
    public Optional<String> project() {
        return enabled ? Optional.of(project) : Optional.empty();
    }

    /** Registers the demo partner, or brings its key and webhook URL up to date; empty when disabled. */
    public Optional<Registered> ensureRegistered(int port) {
        if (!enabled) {
            return Optional.empty();
        }
        Path privateKeyFile = dataDirectory.resolve("demo-partner/private.pem");
        Path publicKeyFile = dataDirectory.resolve("demo-partner/public.pem");
        String publicKeyPem = keyPair(privateKeyFile, publicKeyFile);
        String webhookUrl = configuredWebhookUrl.isBlank()
                ? "http://localhost:" + port + "/sandbox/webhooks/" + project
                : configuredWebhookUrl;
        Optional<PartnerView> existing = directory.find(project);
        if (existing.isEmpty()) {
            registration.register(project, new PartnerSettings(publicKeyPem, webhookUrl, CaptureMode.AUTO,
                    FeeSchedule.NONE));
        } else if (!existing.get().settings().publicKeyPem().equals(publicKeyPem)
                || !existing.get().settings().webhookUrl().equals(webhookUrl)) {
            PartnerSettings was = existing.get().settings();
            registration.update(project, new PartnerSettings(publicKeyPem, webhookUrl, was.captureMode(), was.fees()));
        }
        return Optional.of(new Registered(project, privateKeyFile, webhookUrl));
    }

    private String keyPair(Path privateKeyFile, Path publicKeyFile) {
        try {
            if (!Files.exists(privateKeyFile) || !Files.exists(publicKeyFile)) {
                KeyPair pair = RsaSignatures.generateKeyPair();
                dataDirectory.writeSecret(privateKeyFile, Pem.write(pair.getPrivate()).trim());
                Files.writeString(publicKeyFile, Pem.writePublic(pair), StandardCharsets.UTF_8);
            }
            return Files.readString(publicKeyFile, StandardCharsets.UTF_8).trim() + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the demo partner's keys", e);
        }
    }
}
