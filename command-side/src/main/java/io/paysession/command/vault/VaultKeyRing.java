package io.paysession.command.vault;

import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The vault's AES keys by id. New entries are encrypted with the active key; older entries name the key
 * they were encrypted with, so a key can be rotated by adding a new active key and keeping the old one.
 */
public final class VaultKeyRing {

    private final String activeKeyId;
    private final Map<String, SecretKey> keys;

    public VaultKeyRing(String activeKeyId, Map<String, SecretKey> keys) {
        this.activeKeyId = Objects.requireNonNull(activeKeyId, "activeKeyId");
        this.keys = Map.copyOf(keys);
        if (!this.keys.containsKey(activeKeyId)) {
            throw new IllegalArgumentException("the active vault key " + activeKeyId + " is not in the key ring");
        }
        this.keys.values().forEach(key -> {
            if (key.getEncoded().length != 32) {
                throw new IllegalArgumentException("vault keys must be 256-bit AES keys");
            }
        });
    }

    public String activeKeyId() {
        return activeKeyId;
    }

    /** The ids of every key the ring holds, the active one included. */
    public java.util.Set<String> keyIds() {
        return keys.keySet();
    }

    SecretKey activeKey() {
        return keys.get(activeKeyId);
    }

    Optional<SecretKey> key(String keyId) {
        return Optional.ofNullable(keys.get(keyId));
    }

    /**
     * A secret for another purpose than encryption (a MAC, say), derived from vault key {@code keyId} as
     * HMAC-SHA256(key, purpose): it is as secret as the vault key without being the vault key, and it is the
     * same on every node. Empty when the ring no longer holds that key.
     */
    public Optional<SecretKey> derivedKey(String keyId, String purpose) {
        return key(keyId).map(key -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
                return new SecretKeySpec(mac.doFinal(purpose.getBytes(StandardCharsets.UTF_8)), "HmacSHA256");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is not available", e);
            }
        });
    }

    @Override
    public String toString() {
        return "VaultKeyRing[active=" + activeKeyId + ", keys=" + keys.keySet() + "]";
    }
}
