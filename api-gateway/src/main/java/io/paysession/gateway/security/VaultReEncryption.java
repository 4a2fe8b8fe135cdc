package io.paysession.gateway.security;

import io.paysession.command.erasure.SessionKeys;
import org.springframework.transaction.support.TransactionTemplate;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.VaultKeyRing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Moves the card vault to the active vault key in the background, while the service runs (docs/security.md):
 * after a vault key rotation (a new {@code PAYMENTS_VAULT_KEY} with its id, the previous key kept in
 * {@code payments.vault.previous-keys}), every card still encrypted under an older key the ring holds is decrypted
 * and encrypted again under the active one, in batches of {@code payments.vault.re-encryption.batch-size}, each
 * batch one short transaction, every {@code interval} on one node at a time (db-scheduler). {@link #progress}
 * says what is left under each key, and which older keys nothing needs any more, so that they can be removed
 * from the configuration.
 */
@Component
public class VaultReEncryption {

    private static final Logger log = LoggerFactory.getLogger(VaultReEncryption.class);

    private final CardVault vault;
    private final SessionKeys sessionKeys;
    private final TransactionTemplate transactions;
    private final VaultKeyRing keys;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final int batchSize;
    private final Duration maxRun;

    /**
     * What a report says: cards, service keys, idempotency fingerprints and personal data keys per vault key, and what
     * is removable.
     */
    public record Progress(String activeKeyId, Set<String> configuredKeyIds, Map<String, Long> cardsByKey,
                           Map<String, Long> serviceKeysByKey, Map<String, Long> idempotencyKeysByKey,
                           Map<String, Long> personalDataKeysByKey, long cardsToReEncrypt,
                           long personalDataKeysToReSeal, long unreadable, Set<String> removableKeyIds) {

        public boolean done() {
            return cardsToReEncrypt == 0 && personalDataKeysToReSeal == 0;
        }
    }

    public VaultReEncryption(CardVault vault, VaultKeyRing keys, JdbcTemplate jdbc, Clock clock,
                             SessionKeys sessionKeys, TransactionTemplate transactions,
                             @Value("${payments.vault.re-encryption.batch-size:500}") int batchSize,
                             @Value("${payments.vault.re-encryption.max-run:10s}") Duration maxRun) {
        if (batchSize < 1 || maxRun.isNegative() || maxRun.isZero()) {
            throw new IllegalArgumentException("payments.vault.re-encryption: batch-size must be 1 or more and "
                    + "max-run positive");
        }
        this.vault = vault;
        this.keys = keys;
        this.sessionKeys = sessionKeys;
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.clock = clock;
        this.batchSize = batchSize;
        this.maxRun = maxRun;
    }

    @Bean
    static RecurringTask<Void> vaultReEncryptionTask(VaultReEncryption reEncryption,
                                                     @Value("${payments.vault.re-encryption.interval:1m}") Duration interval) {
        return Tasks.recurring("vault-re-encryption", FixedDelay.of(interval))
                .execute((instance, context) -> reEncryption.run());
    }

    /**
     * One pass over the entries under older keys, batch after batch, for at most {@code max-run} (the next run
     * carries on); how many were re-encrypted.
     */
    public long run() {
        if (keys.keyIds().size() < 2) {
            return 0;
        }
        Instant until = clock.instant().plus(maxRun);
        long total = 0;
        String after = null;
        while (clock.instant().isBefore(until)) {
            CardVault.ReEncrypted batch = vault.reEncryptBatch(after, batchSize);
            total += batch.count();
            if (batch.count() < batchSize) {
                break;
            }
            after = batch.lastToken();
        }
        if (total > 0) {
            log.info("Re-encrypted {} card vault entries under vault key {}", total, keys.activeKeyId());
        }
        // the keys of personal data in events (docs/erasure.md), sealed under the vault key, likewise
        long resealed = 0;
        while (clock.instant().isBefore(until)) {
            Integer batch = transactions.execute(status -> sessionKeys.reSealBatch(batchSize));
            resealed += batch == null ? 0 : batch;
            if (batch == null || batch < batchSize) {
                break;
            }
        }
        if (resealed > 0) {
            log.info("Sealed {} personal data keys again under vault key {}", resealed, keys.activeKeyId());
        }
        return total + resealed;
    }

    public Progress progress() {
        String active = keys.activeKeyId();
        Set<String> configured = new TreeSet<>(keys.keyIds());
        Map<String, Long> cards = vault.entriesByKey();
        Map<String, Long> serviceKeys = countBy("select private_key_vault_key_id, count(*) from service_key "
                + "where retired_at is null and private_key_vault_key_id is not null group by 1");
        // a fingerprint under a key that left the ring no longer recognises a retry: these lapse 24 h after use
        Map<String, Long> idempotency = countBy("select hash_key_id, count(*) from idempotency_key group by 1");
        long toReEncrypt = cards.entrySet().stream()
                .filter(entry -> !entry.getKey().equals(active) && configured.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        long unreadable = cards.entrySet().stream().filter(entry -> !configured.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        Map<String, Long> personalData = sessionKeys.keysBySealingKey();
        long toReSeal = personalData.entrySet().stream()
                .filter(entry -> !entry.getKey().equals(active) && configured.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        Set<String> removable = new TreeSet<>();
        for (String id : configured) {
            if (!id.equals(active) && cards.getOrDefault(id, 0L) == 0 && serviceKeys.getOrDefault(id, 0L) == 0
                    && idempotency.getOrDefault(id, 0L) == 0 && personalData.getOrDefault(id, 0L) == 0) {
                removable.add(id);
            }
        }
        return new Progress(active, configured, cards, serviceKeys, idempotency, personalData, toReEncrypt, toReSeal,
                unreadable, removable);
    }

    private Map<String, Long> countBy(String sql) {
        Map<String, Long> counts = new TreeMap<>();
        jdbc.query(sql, (ResultSet row) -> {
            counts.put(row.getString(1), row.getLong(2));
        });
        return counts;
    }
}
