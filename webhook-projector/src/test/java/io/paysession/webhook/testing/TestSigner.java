package io.paysession.webhook.testing;

import io.paysession.webhook.delivery.WebhookSigner;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;

import java.util.Base64;

/** The service side of the signature scheme with a throwaway key pair, and the partner's check of it. */
public final class TestSigner implements WebhookSigner {

    private final KeyPair keys;

    public TestSigner() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            keys = generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The id {@link #sign} names its key by. */
    public static final String KEY_ID = "test-key-1";

    @Override
    public WebhookSigner.Signature sign(byte[] body) {
        try {
            java.security.Signature signature = java.security.Signature.getInstance("SHA256withRSA");
            signature.initSign(keys.getPrivate());
            signature.update(body);
            return new WebhookSigner.Signature(KEY_ID, Base64.getEncoder().encodeToString(signature.sign()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a partner does with the service public key. */
    public boolean verify(byte[] body, String base64Signature) {
        if (base64Signature == null) {
            return false;
        }
        try {
            java.security.Signature signature = java.security.Signature.getInstance("SHA256withRSA");
            signature.initVerify(keys.getPublic());
            signature.update(body);
            return signature.verify(Base64.getDecoder().decode(base64Signature));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }
}
