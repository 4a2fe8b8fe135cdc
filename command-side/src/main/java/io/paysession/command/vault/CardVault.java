package io.paysession.command.vault;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.stereotype.Component;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Keeps card numbers encrypted (AES-256-GCM, a fresh 96-bit nonce per value, the token and key id as
 * associated data) and hands out tokens in their place (decisions.md section 11). A security code is
 * kept encrypted only until the payment's use of it ends ({@link SecurityCodeEraser}), and never longer than
 * the longest confirmation window allows (the sweeper of the gateway).
 */
@Component
public class CardVault {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final JdbcTemplate jdbc;
    private final VaultKeyRing keys;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public CardVault(JdbcTemplate jdbc, VaultKeyRing keys, Clock clock) {
        this.jdbc = jdbc;
        this.keys = keys;
        this.clock = clock;
    }

    /** Encrypts and stores a card at once: for tokenizations, which send no command (see {@link #seal}). */
    public VaultedCard store(String project, CardNumber number, YearMonth expiry, String securityCode) {
        SealedCard card = seal(project, number, expiry, securityCode);
        insert(card, null);
        return card.vaulted();
    }

    /**
     * Encrypts a card without storing it. A card that a command will refer to is stored by
     * {@link CardsVaultedWithCommands} inside that command's transaction, so that a command the session refuses
     * leaves no vault entry behind.
     */
    public SealedCard seal(String project, CardNumber number, YearMonth expiry, String securityCode) {
        String token = "card_" + HexFormat.of().formatHex(randomBytes(16));
        String keyId = keys.activeKeyId();
        byte[] pan = encrypt(keys.activeKey(), keyId, token, "pan", number.digits());
        byte[] cvc = securityCode == null ? null : encrypt(keys.activeKey(), keyId, token, "cvc", securityCode);
        return new SealedCard(token, project, keyId, pan, cvc, expiry, number.brand(), number.bin(), number.last4());
    }

    /**
     * Stores a card sealed for a session that is loaded in bulk (the benchmark's {@code preload}), as
     * {@link CardsVaultedWithCommands} stores it with the command that started the session.
     */
    public void storeForSession(SealedCard card, String sessionId) {
        insert(card, sessionId);
    }

    /** Stores a sealed card, for session {@code sessionId} when it comes with a command on that session. */
    void insert(SealedCard card, String sessionId) {
        YearMonth expiry = card.expiry();
        jdbc.update("""
                        insert into card_vault (token, project, key_id, pan_ciphertext, cvc_ciphertext, expiry_month,
                                                expiry_year, brand, bin, last4, created_at, session_id)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                card.token(), card.project(), card.keyId(), card.panCiphertext(), card.cvcCiphertext(),
                expiry == null ? null : (short) expiry.getMonthValue(),
                expiry == null ? null : (short) expiry.getYear(),
                card.brand().wireName(), card.bin(), card.last4(), Timestamp.from(clock.instant()), sessionId);
    }

    public Optional<RevealedCard> reveal(String token) {
        List<RevealedCard> found = jdbc.query("""
                        select key_id, pan_ciphertext, cvc_ciphertext, expiry_month, expiry_year
                        from card_vault where token = ?""",
                (row, index) -> {
                    String keyId = row.getString("key_id");
                    SecretKey key = keys.key(keyId)
                            .orElseThrow(() -> new IllegalStateException("vault key " + keyId + " is not configured"));
                    String digits = decrypt(key, keyId, token, "pan", row.getBytes("pan_ciphertext"));
                    byte[] cvcCiphertext = row.getBytes("cvc_ciphertext");
                    String cvc = cvcCiphertext == null ? null : decrypt(key, keyId, token, "cvc", cvcCiphertext);
                    short month = row.getShort("expiry_month");
                    YearMonth expiry = row.wasNull() ? null : YearMonth.of(row.getShort("expiry_year"), month);
                    CardNumber number = CardNumber.parse(digits)
                            .orElseThrow(() -> new IllegalStateException("vault entry " + token + " is corrupt"));
                    return new RevealedCard(number, expiry, cvc);
                },
                token);
        return found.stream().findFirst();
    }

    /** What may be shown of a stored card, and whose it is; nothing is decrypted. */
    public Optional<StoredCard> describe(String token) {
        List<StoredCard> found = jdbc.query("select token, project, brand, bin, last4 from card_vault where token = ?",
                (row, index) -> new StoredCard(row.getString("token"), row.getString("project"),
                        row.getString("brand"), row.getString("bin"), row.getString("last4")),
                token);
        return found.stream().findFirst();
    }

    /** Erases the security codes of every card that came with a command on the session; how many were erased. */
    public int eraseSecurityCodesOfSession(String sessionId) {
        return jdbc.update("""
                        update card_vault set cvc_ciphertext = null, cvc_erased_at = ?
                        where session_id = ? and cvc_ciphertext is not null""",
                Timestamp.from(clock.instant()), sessionId);
    }

    /** Erases the security code of the card {@code token}, if it still has one. */
    public void eraseSecurityCode(String token) {
        jdbc.update("update card_vault set cvc_ciphertext = null, cvc_erased_at = ? where token = ?"
                + " and cvc_ciphertext is not null", Timestamp.from(clock.instant()), token);
    }

    /** Erases every security code stored before {@code instant}, whatever it was stored for; how many were erased. */
    public int eraseSecurityCodesStoredBefore(Instant instant) {
        return jdbc.update("""
                        update card_vault set cvc_ciphertext = null, cvc_erased_at = ?
                        where created_at < ? and cvc_ciphertext is not null""",
                Timestamp.from(clock.instant()), Timestamp.from(instant));
    }

    /**
     * Re-encrypts up to {@code limit} entries held under another vault key than the active one (and one the ring
     * still holds) under the active key, in one transaction, each row locked as it is read, so that a concurrent
     * erasure of a security code waits and then still erases it; how many were re-encrypted. Entries are taken
     * in token order after {@code after} (null for the first), so that a caller can walk the table once.
     */
    public ReEncrypted reEncryptBatch(String after, int limit) {
        String active = keys.activeKeyId();
        List<String> older = keys.keyIds().stream().filter(id -> !id.equals(active)).sorted().toList();
        if (older.isEmpty()) {
            return new ReEncrypted(0, null);
        }
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(
                Objects.requireNonNull(jdbc.getDataSource())));
        return Objects.requireNonNull(transaction.execute(status -> {
            String placeholders = String.join(", ", older.stream().map(id -> "?").toList());
            List<Object> arguments = new ArrayList<>(older);
            arguments.add(after == null ? "" : after);
            arguments.add(limit);
            List<Map<String, Object>> rows = jdbc.queryForList("select token, key_id, pan_ciphertext, cvc_ciphertext "
                    + "from card_vault where key_id in (" + placeholders + ") and token > ? "
                    + "order by token limit ? for update skip locked", arguments.toArray());
            String last = null;
            for (Map<String, Object> row : rows) {
                String token = (String) row.get("token");
                String keyId = (String) row.get("key_id");
                SecretKey old = keys.key(keyId).orElseThrow();
                byte[] pan = encrypt(keys.activeKey(), active, token, "pan",
                        decrypt(old, keyId, token, "pan", (byte[]) row.get("pan_ciphertext")));
                byte[] storedCvc = (byte[]) row.get("cvc_ciphertext");
                byte[] cvc = storedCvc == null ? null : encrypt(keys.activeKey(), active, token, "cvc",
                        decrypt(old, keyId, token, "cvc", storedCvc));
                jdbc.update("update card_vault set key_id = ?, pan_ciphertext = ?, cvc_ciphertext = ? "
                        + "where token = ? and key_id = ?", active, pan, cvc, token, keyId);
                last = token;
            }
            return new ReEncrypted(rows.size(), last);
        }));
    }

    /** A batch of {@link #reEncryptBatch}: how many entries, and the last token (null when none). */
    public record ReEncrypted(int count, String lastToken) {
    }

    /** How many entries each vault key holds, whether or not the ring still has it. */
    public Map<String, Long> entriesByKey() {
        Map<String, Long> counts = new TreeMap<>();
        jdbc.query("select key_id, count(*) from card_vault group by key_id",
                (ResultSet row) -> {
                    counts.put(row.getString(1), row.getLong(2));
                });
        return counts;
    }

    private byte[] encrypt(SecretKey key, String keyId, String token, String field, String plaintext) {
        try {
            byte[] nonce = randomBytes(NONCE_BYTES);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(keyId, token, field));
            byte[] ciphertext = cipher.doFinal(plaintext.getBytes(StandardCharsets.US_ASCII));
            return ByteBuffer.allocate(nonce.length + ciphertext.length).put(nonce).put(ciphertext).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("vault encryption failed", e);
        }
    }

    private String decrypt(SecretKey key, String keyId, String token, String field, byte[] stored) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData(keyId, token, field));
            byte[] plaintext = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
            return new String(plaintext, StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            // the message names the entry, never its content
            throw new IllegalStateException("vault entry " + token + " cannot be decrypted with key " + keyId, e);
        }
    }

    private static byte[] associatedData(String keyId, String token, String field) {
        return (keyId + "|" + token + "|" + field).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }
}
