package io.paysession.webhook.delivery;

/**
 * Signs webhook bodies with the service key: Base64 of RSA PKCS#1 v1.5 with SHA-256 over the exact
 * bytes sent, the scheme partners verify requests with too (decisions.md sections 3 and 10). The key is
 * not this module's business; the application provides the implementation.
 */
public interface WebhookSigner {

    String sign(byte[] body);
}
