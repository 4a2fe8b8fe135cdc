package io.paysession.gateway.security;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Optional;

/**
 * The signature scheme of requests and webhooks (decisions.md section 3): RSA PKCS#1 v1.5 with SHA-256
 * over the exact body bytes, Base64-encoded.
 */
public final class RsaSignatures {

    private static final String ALGORITHM = "SHA256withRSA";

    private RsaSignatures() {
    }

    public static String sign(PrivateKey key, byte[] body) {
        try {
            Signature signature = Signature.getInstance(ALGORITHM);
            signature.initSign(key);
            signature.update(body);
            return Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("signing failed", e);
        }
    }

    /**
     * Whether {@code base64Signature} is a valid signature of {@code body}. Malformed Base64 or a
     * signature of the wrong length is simply not valid. Verification uses only public material, so it
     * has no secret to leak through timing.
     */
    public static boolean verify(PublicKey key, byte[] body, String base64Signature) {
        Optional<byte[]> decoded = decode(base64Signature);
        if (decoded.isEmpty()) {
            return false;
        }
        byte[] signatureBytes = decoded.get();
        try {
            Signature signature = Signature.getInstance(ALGORITHM);
            signature.initVerify(key);
            signature.update(body);
            return signature.verify(signatureBytes);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * The signature's bytes, the one form of it: Base64 admits several spellings of the same bytes (with or without
     * padding, other unused trailing bits), so whatever remembers a signature remembers these.
     */
    public static Optional<byte[]> decode(String base64Signature) {
        if (base64Signature == null || base64Signature.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Base64.getDecoder().decode(base64Signature.trim()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public static KeyPair generateKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA is not available", e);
        }
    }
}
