package io.paysession.gateway.security;

import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.infra.DataDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

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
                              Environment environment,
                              @Value("${payments.vault.require-configured-key:false}") boolean requireConfigured,
                              DataDirectory dataDirectory) {
        return keyRing(configuredKey, keyId, previousKeys(environment), requireConfigured, dataDirectory);
    }

    /**
     * The retired keys still needed to read what they encrypted: {@code payments.vault.previous-keys.<id>=<Base64>}
     * (a configuration file, the command line), and {@code PAYMENTS_VAULT_PREVIOUS_KEYS} as
     * {@code <id>=<Base64>,<id>=<Base64>} (an environment variable cannot name a key id with dashes).
     */
    public static Map<String, String> previousKeys(Environment environment) {
        Map<String, String> keys = new HashMap<>(Binder.get(environment)
                .bind("payments.vault.previous-keys", Bindable.mapOf(String.class, String.class)).orElse(Map.of()));
        keys.putAll(parseList(environment.getProperty("PAYMENTS_VAULT_PREVIOUS_KEYS", "")));
        return keys;
    }

    /** {@code <id>=<Base64>,...}: the id ends at the first {@code =} (Base64 pads with {@code =} at its end only). */
    public static Map<String, String> parseList(String list) {
        Map<String, String> keys = new HashMap<>();
        for (String entry : list.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int separator = entry.indexOf('=');
            if (separator < 1 || separator == entry.length() - 1) {
                throw new IllegalStateException("PAYMENTS_VAULT_PREVIOUS_KEYS must be <id>=<Base64 key>, comma-separated");
            }
            keys.put(entry.substring(0, separator).trim(), entry.substring(separator + 1).trim());
        }
        return keys;
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
