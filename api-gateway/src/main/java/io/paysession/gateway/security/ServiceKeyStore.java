package io.paysession.gateway.security;

import io.paysession.command.RefusedConfigurationException;
import io.paysession.command.vault.VaultKeyRing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;

/**
 * The service key pair that signs webhooks (RSA 2048), generated once and kept in the database, so that
 * every node sharing the database signs with the same key and a restart never changes it.
 * <p>
 * The private key is stored encrypted (AES-256-GCM, a fresh nonce each time, the service key id and vault key
 * id as associated data) under a key derived from the card vault's key, which is configuration, never in the
 * database: a copy of the database or of a backup does not let anyone sign as the service. The row names the
 * vault key it is encrypted under; a start re-encrypts it under the active vault key when that key has been
 * rotated (the previous one still in {@code payments.vault.previous-keys}), and encrypts a clear PEM left by an
 * earlier version. Each of these updates is conditional on the row as it was read, so nodes starting together
 * do it once.
 */
@Component
public class ServiceKeyStore {

    private static final Logger log = LoggerFactory.getLogger(ServiceKeyStore.class);
    private static final String FIRST_KEY_ID = "service-key-1";
    private static final String PURPOSE = "service-key-encryption";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final VaultKeyRing vaultKeys;
    private final SecureRandom random = new SecureRandom();
    private final String keyId;
    private final PrivateKey privateKey;
    private final String publicKeyPem;

    private record Row(String keyId, String clearPem, byte[] ciphertext, String vaultKeyId, String publicKeyPem) {
    }

    public ServiceKeyStore(JdbcTemplate jdbc, Clock clock, VaultKeyRing vaultKeys) {
        this.vaultKeys = vaultKeys;
        for (Row row : load(jdbc, false)) {
            sealUnderActiveKey(jdbc, row);
        }
        List<Row> active = load(jdbc, true);
        if (active.isEmpty()) {
            KeyPair generated = RsaSignatures.generateKeyPair();
            String vaultKeyId = vaultKeys.activeKeyId();
            // several nodes may start at once: the first insert wins, the others read it
            int inserted = jdbc.update("""
                            insert into service_key (key_id, private_key_ciphertext, private_key_vault_key_id,
                                                     public_key_pem, active, created_at)
                            values (?, ?, ?, ?, true, ?) on conflict do nothing""",
                    FIRST_KEY_ID, seal(FIRST_KEY_ID, vaultKeyId, generated.getPrivate()), vaultKeyId,
                    Pem.writePublic(generated), Timestamp.from(clock.instant()));
            if (inserted == 1) {
                log.info("Generated the service key pair {}, encrypted under vault key {}", FIRST_KEY_ID, vaultKeyId);
            }
            active = load(jdbc, true);
        }
        Row row = active.get(0);
        this.keyId = row.keyId();
        this.privateKey = open(row);
        this.publicKeyPem = row.publicKeyPem();
    }

    private static List<Row> load(JdbcTemplate jdbc, boolean activeOnly) {
        return jdbc.query("select key_id, private_key_pem, private_key_ciphertext, private_key_vault_key_id, "
                        + "public_key_pem from service_key" + (activeOnly ? " where active" : ""),
                (rs, i) -> new Row(rs.getString(1), rs.getString(2), rs.getBytes(3), rs.getString(4), rs.getString(5)));
    }

    /** A clear key of an earlier version, or one under a rotated vault key: encrypted under the active one. */
    private void sealUnderActiveKey(JdbcTemplate jdbc, Row row) {
        String active = vaultKeys.activeKeyId();
        if (row.clearPem() != null) {
            PrivateKey key = Pem.readPrivateKey(row.clearPem());
            if (jdbc.update("""
                            update service_key set private_key_ciphertext = ?, private_key_vault_key_id = ?,
                                                   private_key_pem = null
                            where key_id = ? and private_key_pem is not null""",
                    seal(row.keyId(), active, key), active, row.keyId()) == 1) {
                log.info("Encrypted the clear private key of service key {} under vault key {}", row.keyId(), active);
            }
        } else if (!active.equals(row.vaultKeyId()) && vaultKeys.derivedKey(row.vaultKeyId(), PURPOSE).isPresent()) {
            if (jdbc.update("""
                            update service_key set private_key_ciphertext = ?, private_key_vault_key_id = ?
                            where key_id = ? and private_key_vault_key_id = ?""",
                    seal(row.keyId(), active, open(row)), active, row.keyId(), row.vaultKeyId()) == 1) {
                log.info("Re-encrypted service key {} from vault key {} under vault key {}", row.keyId(),
                        row.vaultKeyId(), active);
            }
        }
    }

    private byte[] seal(String serviceKeyId, String vaultKeyId, PrivateKey key) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, encryptionKey(vaultKeyId, serviceKeyId), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(serviceKeyId, vaultKeyId));
            byte[] ciphertext = cipher.doFinal(key.getEncoded());
            return ByteBuffer.allocate(nonce.length + ciphertext.length).put(nonce).put(ciphertext).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encrypting service key " + serviceKeyId + " failed", e);
        }
    }

    private PrivateKey open(Row row) {
        byte[] stored = row.ciphertext();
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, encryptionKey(row.vaultKeyId(), row.keyId()),
                    new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData(row.keyId(), row.vaultKeyId()));
            byte[] pkcs8 = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new RefusedConfigurationException("The private key of service key " + row.keyId()
                    + " cannot be decrypted with vault key " + row.vaultKeyId() + ".",
                    "Start with the vault key the service key was encrypted under (PAYMENTS_VAULT_KEY, or "
                            + "payments.vault.previous-keys." + row.vaultKeyId() + ").");
        }
    }

    /** AES-256 from the vault key {@code vaultKeyId}, for this purpose only (the vault key itself encrypts cards). */
    private SecretKey encryptionKey(String vaultKeyId, String serviceKeyId) {
        return vaultKeys.derivedKey(vaultKeyId, PURPOSE)
                .map(derived -> (SecretKey) new SecretKeySpec(derived.getEncoded(), "AES"))
                .orElseThrow(() -> new RefusedConfigurationException("Service key " + serviceKeyId
                        + " is encrypted under vault key " + vaultKeyId + ", which is not configured.",
                        "Add that key as payments.vault.previous-keys." + vaultKeyId + " (or make it PAYMENTS_VAULT_KEY "
                                + "with PAYMENTS_VAULT_KEY_ID=" + vaultKeyId + "); the next start re-encrypts the "
                                + "service key under the active vault key."));
    }

    private static byte[] associatedData(String serviceKeyId, String vaultKeyId) {
        return ("service_key|" + serviceKeyId + "|" + vaultKeyId).getBytes(StandardCharsets.UTF_8);
    }

    public String keyId() {
        return keyId;
    }

    public String publicKeyPem() {
        return publicKeyPem;
    }

    public String sign(byte[] body) {
        return RsaSignatures.sign(privateKey, body);
    }
}
