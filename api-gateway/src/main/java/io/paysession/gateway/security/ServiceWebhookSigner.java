package io.paysession.gateway.security;

import io.paysession.webhook.delivery.WebhookSigner;
import org.springframework.stereotype.Component;

/** Webhooks are signed with the service key, the same scheme partners sign requests with. */
@Component
public class ServiceWebhookSigner implements WebhookSigner {

    private final ServiceKeyStore keys;

    public ServiceWebhookSigner(ServiceKeyStore keys) {
        this.keys = keys;
    }

    @Override
    public String sign(byte[] body) {
        return keys.sign(body);
    }
}
