package io.paysession.gateway.security;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256, which every JVM has. */
public final class Sha256 {

    private Sha256() {
    }

    public static byte[] of(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
