package io.paysession.gateway.security;

import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.infra.DataDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The card vault's keys: {@code PAYMENTS_VAULT_KEY} (Base64 of 32 bytes) with {@code PAYMENTS_VAULT_KEY_ID},
 * plus retired keys for reading older entries as {@code payments.vault.previous-keys.<id>=<Base64>}.
 * Without configuration (the embedded default) a key is generated once into the data directory; the
 * production profile requires it to be configured.
 */
@Configuration
public class VaultKeyConfiguration {

    private static final Logger log = LoggerFactory.getLogger(VaultKeyConfiguration.class);

    @Bean
    VaultKeyRing vaultKeyRing(@Value("${payments.vault.key:}") String configuredKey,
                              @Value("${payments.vault.key-id:vault-key-1}") String keyId,
                              @Value("#{${payments.vault.previous-keys:{:}}}") Map<String, String> previousKeys,
                              @Value("${payments.vault.require-configured-key:false}") boolean requireConfigured,
                              DataDirectory dataDirectory) {
        return keyRing(configuredKey, keyId, previousKeys, requireConfigured, dataDirectory);
    }

    /** The key ring of these settings; also what the preload command line seals its cards with. */
    public static VaultKeyRing keyRing(String configuredKey, String keyId, Map<String, String> previousKeys,
                                       boolean requireConfigured, DataDirectory dataDirectory) {
        String encoded = configuredKey;
        if (encoded == null || encoded.isBlank()) {
            if (requireConfigured) {
                throw new IllegalStateException("PAYMENTS_VAULT_KEY must be set in this profile");
            }
            encoded = dataDirectory.readOrCreate("vault-key", () -> {
                byte[] key = new byte[32];
                new SecureRandom().nextBytes(key);
                log.info("Generated the card vault key {} in the data directory", keyId);
                return Base64.getEncoder().encodeToString(key);
            });
        }
        Map<String, SecretKey> keys = new HashMap<>();
        previousKeys.forEach((id, value) -> keys.put(id, aesKey(value)));
        keys.put(keyId, aesKey(encoded));
        return new VaultKeyRing(keyId, keys);
    }

    private static SecretKey aesKey(String base64) {
        return new SecretKeySpec(Base64.getDecoder().decode(base64.trim()), "AES");
    }
}
