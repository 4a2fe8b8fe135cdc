package io.paysession.gateway.security;

import io.paysession.webhook.delivery.WebhookSigner;
import org.springframework.stereotype.Component;

/** Webhooks are signed with the active service key, the same scheme partners sign requests with, and name it. */
@Component
public class ServiceWebhookSigner implements WebhookSigner {

    private final ServiceKeyStore keys;

    public ServiceWebhookSigner(ServiceKeyStore keys) {
        this.keys = keys;
    }

    @Override
    public Signature sign(byte[] body) {
        ServiceKeyStore.Signature signature = keys.sign(body);
        return new Signature(signature.keyId(), signature.value());
    }
}
