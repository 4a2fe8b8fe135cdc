package io.paysession.gateway.sandbox;

import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.command.rails.sandbox.SandboxLinks;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The address payers reach the hosted pages at: {@code PAYMENTS_PUBLIC_BASE_URL} when the service sits
 * behind a public host name, else {@code http://localhost:<port>} of this service.
 */
@Component
@ConditionalOnSandboxRails
public class PublicLinks implements SandboxLinks {

    private final String configuredBaseUrl;
    private volatile String localBaseUrl = "http://localhost:8080";

    public PublicLinks(@Value("${payments.public-base-url:}") String configuredBaseUrl) {
        this.configuredBaseUrl = configuredBaseUrl.endsWith("/")
                ? configuredBaseUrl.substring(0, configuredBaseUrl.length() - 1) : configuredBaseUrl;
    }

    @EventListener
    public void onStarted(WebServerInitializedEvent event) {
        localBaseUrl = "http://localhost:" + event.getWebServer().getPort();
    }

    public String baseUrl() {
        return configuredBaseUrl.isBlank() ? localBaseUrl : configuredBaseUrl;
    }

    @Override
    public String interactionUrl(String interactionId) {
        return baseUrl() + "/sandbox/interactions/" + interactionId;
    }
}
