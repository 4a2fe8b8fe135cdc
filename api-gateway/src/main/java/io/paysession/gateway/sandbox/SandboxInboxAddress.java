package io.paysession.gateway.sandbox;

import io.paysession.api.partner.PartnerId;
import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.webhook.delivery.OwnWebhookInbox;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The address of this service's own webhook inbox ({@link WebhookInboxController}), as the demo partner's
 * webhook URL names it: {@code http://localhost:<this service's port>/sandbox/webhooks/<project>}. Webhooks to
 * exactly such a URL go to loopback without a network allowance; any other path, port, scheme, query or user
 * on loopback is a partner URL like any other, and refused unless allowed. Present only while the inbox runs
 * (never in the production profile).
 */
@Component
@ConditionalOnSandboxRails
@ConditionalOnProperty(name = "payments.sandbox.webhook-inbox.enabled", havingValue = "true", matchIfMissing = true)
public class SandboxInboxAddress implements OwnWebhookInbox {

    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final Pattern INBOX_PATH = Pattern.compile("/sandbox/webhooks/" + PartnerId.PROJECT.pattern());

    private volatile int port = -1;

    @EventListener
    public void onStarted(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) {
            port = event.getWebServer().getPort();
        }
    }

    /** Until the web server listens there is no inbox to deliver to, and nothing is recognised. */
    @Override
    public boolean isOwnInbox(URI url) {
        return port > 0
                && "http".equals(url.getScheme())
                && url.getHost() != null && LOOPBACK_NAMES.contains(url.getHost().toLowerCase(Locale.ROOT))
                && url.getPort() == port
                && url.getRawUserInfo() == null
                && url.getRawQuery() == null
                && url.getRawFragment() == null
                && url.getRawPath() != null && INBOX_PATH.matcher(url.getRawPath()).matches();
    }

    void listeningOn(int port) {
        this.port = port;
    }
}
