package io.paysession.command.erasure;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.paysession.api.session.SessionId;
import io.paysession.command.vault.VaultKeyRing;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link SessionKeys} in PostgreSQL ({@code pii_session_key}, {@code pii_subject_session}, {@code pii_index_key}:
 * the command-side migration), the keys sealed under a key derived from the vault key. Keys are cached for {@code cacheTime}: a node that read a key
 * before another node erased it may use it that long (the erasure waits as long before it rebuilds what was derived
 * from the data); this node's own caches are emptied by the erasure at once. A key created in a transaction is cached
 * only once the transaction commits, so a rolled-back key is never used for a retry.
 */
public final class JdbcSessionKeys implements SessionKeys {

    static final String SEALING_PURPOSE = "pii-session-key-sealing";
    /** The id of the index key ({@code pii_index_key}); one for now, a column so that it may change some day. */
    static final String INDEX_KEY_ID = "index-1";
    private static final int NONCE_BYTES = 12;

    private final JdbcTemplate jdbc;
    private final VaultKeyRing vault;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Cache<String, Optional<SecretKey>> keys;
    private final Cache<SessionId, Writing> writing;
    private volatile SecretKey indexKey;

    public JdbcSessionKeys(JdbcTemplate jdbc, VaultKeyRing vault, Clock clock, Duration cacheTime) {
        this.jdbc = jdbc;
        this.vault = vault;
        this.clock = clock;
        this.keys = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(cacheTime).build();
        this.writing = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(cacheTime).build();
    }

    @Override
    public DataKey writingKey(SessionId session, String project) {
        return writing(session, project).key();
    }

    /** A session's writing key and partner. */
    private record Writing(DataKey key, String project) {
    }

    /**
     * The session's writing key: from the node's cache (committed keys), else from this transaction's (a command's
     * events after its first), else read or made. Reused within the transaction so that a command with several events
     * reads its key once.
     */
    private Writing writing(SessionId session, String project) {
        Writing cached = writing.getIfPresent(session);
        if (cached != null) {
            return cached;
        }
        Map<SessionId, Writing> inTransaction = transactionWritings();
        if (inTransaction != null && inTransaction.containsKey(session)) {
            return inTransaction.get(session);
        }
        List<Map<String, Object>> rows = jdbc.queryForList("""
                select key_id, project, sealed_key, sealing_key_id from pii_session_key
                 where session_id = ? and erased_at is null order by created_at desc limit 1""", session.value());
        Writing found;
        if (!rows.isEmpty()) {
            Map<String, Object> row = rows.get(0);
            String keyId = (String) row.get("key_id");
            found = new Writing(new DataKey(keyId, unseal(keyId, (byte[]) row.get("sealed_key"),
                    (String) row.get("sealing_key_id"))), (String) row.get("project"));
        } else {
            found = new Writing(create(session, project), project);
        }
        if (inTransaction != null) {
            inTransaction.put(session, found);
        }
        afterCommit(() -> {
            writing.put(session, found);
            keys.put(found.key().keyId(), Optional.of(found.key().key()));
        });
        return found;
    }

    /** The writing keys read or made in the current transaction; null outside one. */
    @SuppressWarnings("unchecked")
    private Map<SessionId, Writing> transactionWritings() {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return null;
        }
        Object bound = TransactionSynchronizationManager.getResource(this);
        if (bound != null) {
            return (Map<SessionId, Writing>) bound;
        }
        Map<SessionId, Writing> map = new java.util.HashMap<>();
        TransactionSynchronizationManager.bindResource(this, map);
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                TransactionSynchronizationManager.unbindResourceIfPossible(JdbcSessionKeys.this);
            }
        });
        return map;
    }

    private DataKey create(SessionId session, String project) {
        byte[] material = new byte[32];
        random.nextBytes(material);
        byte[] id = new byte[9];
        random.nextBytes(id);
        String keyId = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        String sealingKeyId = vault.activeKeyId();
        jdbc.update("""
                insert into pii_session_key (key_id, session_id, project, sealed_key, sealing_key_id, created_at)
                values (?, ?, ?, ?, ?, ?)""", keyId, session.value(), project, seal(keyId, material, sealingKeyId),
                sealingKeyId, Timestamp.from(clock.instant()));
        return new DataKey(keyId, new SecretKeySpec(material, "AES"));
    }

    @Override
    public Optional<SecretKey> key(String keyId) {
        return keys.get(keyId, id -> {
            List<Map<String, Object>> rows = jdbc.queryForList(
                    "select sealed_key, sealing_key_id from pii_session_key where key_id = ?", id);
            if (rows.isEmpty() || rows.get(0).get("sealed_key") == null) {
                // erased; a key id no row names was never committed, so no stored event can name it either
                return Optional.empty();
            }
            return Optional.of(unseal(id, (byte[]) rows.get(0).get("sealed_key"), (String) rows.get(0).get("sealing_key_id")));
        });
    }

    @Override
    public void link(SessionId session, String project, String reference) {
        String partner = project;
        if (partner == null) {
            Writing held = writing.getIfPresent(session);
            Map<SessionId, Writing> inTransaction = held == null ? transactionWritings() : null;
            if (held == null && inTransaction != null) {
                held = inTransaction.get(session);
            }
            partner = held == null ? null : held.project();
        }
        if (partner == null) {
            List<String> known = jdbc.queryForList("""
                    select project from pii_session_key where session_id = ? and project is not null limit 1""",
                    String.class, session.value());
            if (known.isEmpty()) {
                throw new IllegalStateException("the partner of " + session + " is not known: its first event was "
                        + "stored before its data was encrypted (docs/erasure.md, old events)");
            }
            partner = known.get(0);
        }
        jdbc.update("""
                insert into pii_subject_session (subject_hash, index_key_id, session_id) values (?, ?, ?)
                on conflict do nothing""", subjectHash(partner, reference), INDEX_KEY_ID, session.value());
    }

    @Override
    public List<SessionId> sessionsOf(String project, String reference) {
        if (jdbc.queryForObject("select count(*) from pii_index_key", Long.class) == 0) {
            return List.of(); // nothing was ever linked
        }
        return jdbc.queryForList("select distinct session_id from pii_subject_session where subject_hash = ?",
                        String.class, subjectHash(project, reference)).stream()
                .map(SessionId::of).sorted((a, b) -> a.value().compareTo(b.value())).toList();
    }

    @Override
    public int erase(Collection<SessionId> sessions) {
        String[] ids = sessions.stream().map(SessionId::value).toArray(String[]::new);
        List<String> keyIds = jdbc.queryForList(
                "select key_id from pii_session_key where session_id = any(?) and erased_at is null", String.class,
                (Object) ids);
        int erased = jdbc.update("""
                update pii_session_key set sealed_key = null, sealing_key_id = null, erased_at = ?
                 where session_id = any(?) and erased_at is null""", Timestamp.from(clock.instant()), ids);
        afterCommit(() -> {
            sessions.forEach(writing::invalidate);
            keyIds.forEach(keys::invalidate);
        });
        return erased;
    }

    private String subjectHash(String project, String reference) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(indexKey());
            return HexFormat.of().formatHex(mac.doFinal((project + "\u0000" + reference).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /**
     * The index key: made by the first link (in its transaction; a concurrent first link on another node waits for it
     * and uses the same key), cached only once committed.
     */
    private SecretKey indexKey() {
        SecretKey cached = indexKey;
        if (cached != null) {
            return cached;
        }
        List<Map<String, Object>> rows = jdbc.queryForList(
                "select sealed_key, sealing_key_id from pii_index_key where key_id = ?", INDEX_KEY_ID);
        if (rows.isEmpty()) {
            byte[] material = new byte[32];
            random.nextBytes(material);
            String sealingKeyId = vault.activeKeyId();
            jdbc.update("""
                    insert into pii_index_key (key_id, sealed_key, sealing_key_id, created_at) values (?, ?, ?, ?)
                    on conflict (key_id) do nothing""", INDEX_KEY_ID, seal(INDEX_KEY_ID, material, sealingKeyId),
                    sealingKeyId, Timestamp.from(clock.instant()));
            rows = jdbc.queryForList("select sealed_key, sealing_key_id from pii_index_key where key_id = ?",
                    INDEX_KEY_ID);
        }
        SecretKey key = unseal(INDEX_KEY_ID, (byte[]) rows.get(0).get("sealed_key"),
                (String) rows.get(0).get("sealing_key_id"));
        afterCommit(() -> indexKey = key);
        return key;
    }

    @Override
    public int reSealBatch(int limit) {
        String active = vault.activeKeyId();
        // keys sealed under a vault key the ring does not hold stay as they are (and fail loudly when read)
        Object ring = vault.keyIds().toArray(String[]::new);
        int resealed = 0;
        for (Map<String, Object> row : jdbc.queryForList("""
                select key_id, sealed_key, sealing_key_id from pii_index_key
                 where sealing_key_id <> ? and sealing_key_id = any(?) for update""", active, ring)) {
            String keyId = (String) row.get("key_id");
            byte[] material = unseal(keyId, (byte[]) row.get("sealed_key"), (String) row.get("sealing_key_id")).getEncoded();
            jdbc.update("update pii_index_key set sealed_key = ?, sealing_key_id = ? where key_id = ?",
                    seal(keyId, material, active), active, keyId);
            resealed++;
        }
        for (Map<String, Object> row : jdbc.queryForList("""
                select key_id, sealed_key, sealing_key_id from pii_session_key
                 where sealed_key is not null and sealing_key_id <> ? and sealing_key_id = any(?)
                 limit ? for update skip locked""", active, ring, limit)) {
            String keyId = (String) row.get("key_id");
            byte[] material = unseal(keyId, (byte[]) row.get("sealed_key"), (String) row.get("sealing_key_id")).getEncoded();
            jdbc.update("update pii_session_key set sealed_key = ?, sealing_key_id = ? where key_id = ?",
                    seal(keyId, material, active), active, keyId);
            resealed++;
        }
        return resealed;
    }

    @Override
    public Map<String, Long> keysBySealingKey() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        jdbc.query("""
                select sealing_key_id, count(*) from (
                    select sealing_key_id from pii_session_key where sealed_key is not null
                    union all select sealing_key_id from pii_index_key) keys group by 1""",
                (java.sql.ResultSet row) -> {
                    counts.merge(row.getString(1), row.getLong(2), Long::sum);
                });
        return counts;
    }

    private byte[] seal(String keyId, byte[] material, String sealingKeyId) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, sealingKey(sealingKeyId), new GCMParameterSpec(128, nonce));
            cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(material);
            byte[] stored = new byte[NONCE_BYTES + sealed.length];
            System.arraycopy(nonce, 0, stored, 0, NONCE_BYTES);
            System.arraycopy(sealed, 0, stored, NONCE_BYTES, sealed.length);
            return stored;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a session key could not be sealed", e);
        }
    }

    private SecretKey unseal(String keyId, byte[] stored, String sealingKeyId) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, sealingKey(sealingKeyId), new GCMParameterSpec(128, stored, 0, NONCE_BYTES));
            cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
            return new SecretKeySpec(cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("session key " + keyId + " could not be unsealed", e);
        }
    }

    /** Never "erased" for a vault key that is missing: that is a configuration error, and it fails loudly. */
    private SecretKey sealingKey(String sealingKeyId) {
        return vault.derivedKey(sealingKeyId, SEALING_PURPOSE)
                .map(derived -> (SecretKey) new SecretKeySpec(derived.getEncoded(), "AES"))
                .orElseThrow(() -> new IllegalStateException("vault key " + sealingKeyId
                        + " is not in the key ring: the session keys sealed under it cannot be opened"));
    }

    private static void afterCommit(Runnable action) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    action.run();
                }
            });
        } else {
            action.run();
        }
    }
}
