package io.paysession.webhook.delivery;

/**
 * Signs webhook bodies with the service key: Base64 of RSA PKCS#1 v1.5 with SHA-256 over the exact
 * bytes sent, the scheme partners verify requests with too (decisions.md sections 3 and 10), with the id of the
 * key that signed, which is published with its public half ({@code GET /service/public-keys}). The keys are not
 * this module's business; the application provides the implementation.
 */
public interface WebhookSigner {

    Signature sign(byte[] body);

    /** {@code value}: the Base64 signature; {@code keyId}: the service key that made it. */
    record Signature(String keyId, String value) {
    }
}
