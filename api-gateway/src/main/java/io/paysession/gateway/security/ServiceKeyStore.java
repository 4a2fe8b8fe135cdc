package io.paysession.gateway.security;

import io.paysession.command.RefusedConfigurationException;
import io.paysession.command.vault.VaultKeyRing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
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
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * The service key pairs that sign webhooks (RSA 2048), kept in the database, so that every node sharing the
 * database signs with the same key and a restart never changes it. The first node to start generates the first.
 * <p>
 * <b>Rotation</b> ({@link #rotate}): a new pair becomes the active one and the previous one stays published
 * ({@link #published}) for an overlap, so that partners keep verifying what it signed, then is retired: no longer
 * published, its private half erased. A node signs with the key that was active when it last read the table, and
 * reads it again before signing when that is older than {@code payments.service-keys.refresh-interval}; an
 * overlap is never shorter than twice that interval, so no node signs with a key that is no longer published. A
 * new key is published the moment its row is committed, before anyone signs with it: {@link #published} reads
 * the table each time.
 * <p>
 * <b>At rest</b>, a private key is stored encrypted (AES-256-GCM, a fresh nonce each time, the service key id and
 * vault key id as associated data) under a key derived from the card vault's key, which is configuration, never
 * in the database: a copy of the database or of a backup does not let anyone sign as the service. The row names
 * the vault key it is encrypted under; a start re-encrypts it under the active vault key when that key has been
 * rotated (the previous one still in {@code payments.vault.previous-keys}), and encrypts a clear PEM left by an
 * earlier version. Each of these updates is conditional on the row as it was read, so nodes starting together
 * do it once.
 */
@Component
public class ServiceKeyStore {

    private static final Logger log = LoggerFactory.getLogger(ServiceKeyStore.class);
    private static final String KEY_ID_PREFIX = "service-key-";
    private static final String PURPOSE = "service-key-encryption";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final VaultKeyRing vaultKeys;
    private final Duration defaultOverlap;
    private final Duration refreshInterval;
    private final SecureRandom random = new SecureRandom();
    private volatile SigningKey signing;

    private record Row(String keyId, String clearPem, byte[] ciphertext, String vaultKeyId, String publicKeyPem) {
    }

    /** One private key and its id, to sign several things with the same key (a head naming its key id, say). */
    public record SigningKey(String keyId, PrivateKey privateKey, String publicKeyPem, Instant readAt) {

        public String sign(byte[] body) {
            return RsaSignatures.sign(privateKey, body);
        }

        @Override
        public String toString() {
            return "SigningKey[" + keyId + "]";
        }
    }

    /** A signature and the id of the key that made it. */
    public record Signature(String keyId, String value) {
    }

    /** A published key: the active one ({@code validUntil} null) or one still valid after a rotation. */
    public record PublishedKey(String keyId, String publicKeyPem, Instant validFrom, Instant validUntil,
                               boolean active) {
    }

    /** What a rotation did. */
    public record Rotation(String keyId, String previousKeyId, Instant previousValidUntil) {
    }

    /** With the default overlap (7 days) and refresh interval (5 s): for tools and tests. */
    public ServiceKeyStore(JdbcTemplate jdbc, Clock clock, VaultKeyRing vaultKeys) {
        this(jdbc, clock, vaultKeys, Duration.ofDays(7), Duration.ofSeconds(5));
    }

    @Autowired
    public ServiceKeyStore(JdbcTemplate jdbc, Clock clock, VaultKeyRing vaultKeys,
                           @Value("${payments.service-keys.overlap:7d}") Duration defaultOverlap,
                           @Value("${payments.service-keys.refresh-interval:5s}") Duration refreshInterval) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.vaultKeys = vaultKeys;
        this.refreshInterval = refreshInterval;
        if (refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new IllegalArgumentException("payments.service-keys.refresh-interval must be positive");
        }
        if (defaultOverlap.compareTo(minimumOverlap()) < 0) {
            throw new IllegalArgumentException("payments.service-keys.overlap must be at least " + minimumOverlap()
                    + ", twice payments.service-keys.refresh-interval");
        }
        this.defaultOverlap = defaultOverlap;
        for (Row row : load(jdbc, false)) {
            sealUnderActiveKey(jdbc, row);
        }
        if (load(jdbc, true).isEmpty()) {
            KeyPair generated = RsaSignatures.generateKeyPair();
            String keyId = KEY_ID_PREFIX + 1;
            String vaultKeyId = vaultKeys.activeKeyId();
            Timestamp now = Timestamp.from(clock.instant());
            // several nodes may start at once: the first insert wins, the others read it
            int inserted = jdbc.update("""
                            insert into service_key (key_id, private_key_ciphertext, private_key_vault_key_id,
                                                     public_key_pem, active, created_at, activated_at)
                            values (?, ?, ?, ?, true, ?, ?) on conflict do nothing""",
                    keyId, seal(keyId, vaultKeyId, generated.getPrivate()), vaultKeyId,
                    Pem.writePublic(generated), now, now);
            if (inserted == 1) {
                log.info("Generated the service key pair {}, encrypted under vault key {}", keyId, vaultKeyId);
            }
        }
        this.signing = readActive();
    }

    /** The shortest overlap: every node reads the table again within one refresh interval. */
    public Duration minimumOverlap() {
        return refreshInterval.multipliedBy(2);
    }

    public Duration defaultOverlap() {
        return defaultOverlap;
    }

    /** The key to sign with now: the active one as this node read it less than a refresh interval ago. */
    public SigningKey current() {
        SigningKey known = signing;
        if (clock.instant().isBefore(known.readAt().plus(refreshInterval))) {
            return known;
        }
        return refresh();
    }

    private synchronized SigningKey refresh() {
        SigningKey known = signing;
        if (clock.instant().isBefore(known.readAt().plus(refreshInterval))) {
            return known;
        }
        retireExpired();
        SigningKey read = readActive(known);
        signing = read;
        return read;
    }

    private SigningKey readActive() {
        return readActive(null);
    }

    /** The active key; {@code known}'s private key again when it is still the active one (no decryption). */
    private SigningKey readActive(SigningKey known) {
        Instant readAt = clock.instant();
        Row row = load(jdbc, true).stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("no active service key"));
        if (known != null && known.keyId().equals(row.keyId())) {
            return new SigningKey(known.keyId(), known.privateKey(), known.publicKeyPem(), readAt);
        }
        if (known != null) {
            log.info("Signing with service key {} from now on (was {})", row.keyId(), known.keyId());
        }
        return new SigningKey(row.keyId(), open(row), row.publicKeyPem(), readAt);
    }

    /** Keys past their overlap lose their private half; their public half stays, unpublished. */
    private void retireExpired() {
        Timestamp now = Timestamp.from(clock.instant());
        List<String> retired = jdbc.queryForList("""
                        update service_key set retired_at = ?, private_key_pem = null, private_key_ciphertext = null,
                                               private_key_vault_key_id = null
                        where not active and retires_at <= ? and retired_at is null
                        returning key_id""", String.class, now, now);
        retired.forEach(keyId -> log.info("Retired service key {}: no longer published, its private key erased", keyId));
    }

    /**
     * Makes a new key pair the active one; the previous one stays published for {@code overlap} (at least
     * {@link #minimumOverlap()}), then is retired. Rotations are serialized by a table lock.
     */
    public Rotation rotate(Duration overlap) {
        if (overlap.compareTo(minimumOverlap()) < 0) {
            throw new IllegalArgumentException("the overlap must be at least " + minimumOverlap());
        }
        KeyPair generated = RsaSignatures.generateKeyPair();
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(
                Objects.requireNonNull(jdbc.getDataSource())));
        Rotation rotation = transaction.execute(status -> {
            jdbc.execute("lock table service_key in share row exclusive mode");
            // what PostgreSQL keeps (microseconds), so that the answer says what the table says
            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
            String previous = jdbc.queryForObject("select key_id from service_key where active", String.class);
            int highest = jdbc.queryForList("select key_id from service_key", String.class).stream()
                    .filter(id -> id.startsWith(KEY_ID_PREFIX))
                    .map(id -> id.substring(KEY_ID_PREFIX.length()))
                    .filter(number -> number.matches("[0-9]{1,9}"))
                    .mapToInt(Integer::parseInt).max().orElse(0);
            String keyId = KEY_ID_PREFIX + (highest + 1);
            Instant validUntil = now.plus(overlap);
            jdbc.update("update service_key set active = false, retires_at = ? where active",
                    Timestamp.from(validUntil));
            String vaultKeyId = vaultKeys.activeKeyId();
            jdbc.update("""
                            insert into service_key (key_id, private_key_ciphertext, private_key_vault_key_id,
                                                     public_key_pem, active, created_at, activated_at)
                            values (?, ?, ?, ?, true, ?, ?)""",
                    keyId, seal(keyId, vaultKeyId, generated.getPrivate()), vaultKeyId, Pem.writePublic(generated),
                    Timestamp.from(now), Timestamp.from(now));
            return new Rotation(keyId, previous, validUntil);
        });
        log.info("Rotated the service key: {} signs from now on, {} stays published until {}",
                rotation.keyId(), rotation.previousKeyId(), rotation.previousValidUntil());
        synchronized (this) {
            signing = readActive(signing);
        }
        return rotation;
    }

    /** The active key and those still valid after a rotation, newest first, as the table holds them now. */
    public List<PublishedKey> published() {
        Timestamp now = Timestamp.from(clock.instant());
        return jdbc.query("""
                        select key_id, public_key_pem, activated_at, retires_at, active from service_key
                        where active or (retired_at is null and retires_at > ?)
                        order by activated_at desc, key_id desc""",
                (rs, i) -> new PublishedKey(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant(),
                        rs.getTimestamp(4) == null ? null : rs.getTimestamp(4).toInstant(), rs.getBoolean(5)),
                now);
    }

    private static List<Row> load(JdbcTemplate jdbc, boolean activeOnly) {
        return jdbc.query("select key_id, private_key_pem, private_key_ciphertext, private_key_vault_key_id, "
                        + "public_key_pem from service_key where " + (activeOnly ? "active" : "retired_at is null"),
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
            cipher.init(Cipher.ENCRYPT_MODE, encryptionKey(vaultKeys, vaultKeyId, serviceKeyId),
                    new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(serviceKeyId, vaultKeyId));
            byte[] ciphertext = cipher.doFinal(key.getEncoded());
            return ByteBuffer.allocate(nonce.length + ciphertext.length).put(nonce).put(ciphertext).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encrypting service key " + serviceKeyId + " failed", e);
        }
    }

    private PrivateKey open(Row row) {
        return open(row, vaultKeys);
    }

    /**
     * The active service key as the table holds it, read and decrypted without writing anything: for the command
     * line, which must not change the service's tables (a start of the service seals and generates).
     */
    public static SigningKey readActiveKey(JdbcTemplate jdbc, VaultKeyRing vaultKeys, Clock clock) {
        Row row = load(jdbc, true).stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("the database has no active service key: start the "
                        + "service once"));
        if (row.ciphertext() == null) {
            throw new IllegalStateException("service key " + row.keyId() + " is not encrypted yet: start the service "
                    + "once, which encrypts it");
        }
        return new SigningKey(row.keyId(), open(row, vaultKeys), row.publicKeyPem(), clock.instant());
    }

    private static PrivateKey open(Row row, VaultKeyRing vaultKeys) {
        byte[] stored = row.ciphertext();
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, encryptionKey(vaultKeys, row.vaultKeyId(), row.keyId()),
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
    private static SecretKey encryptionKey(VaultKeyRing vaultKeys, String vaultKeyId, String serviceKeyId) {
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

    /** The active key's id, as this node signs with it. */
    public String keyId() {
        return current().keyId();
    }

    /** The active key's public half, as this node signs with it. */
    public String publicKeyPem() {
        return current().publicKeyPem();
    }

    public Signature sign(byte[] body) {
        SigningKey key = current();
        return new Signature(key.keyId(), key.sign(body));
    }
}
