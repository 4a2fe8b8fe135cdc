package io.paysession.command.rails.sandbox;

import io.paysession.api.session.CardMethod;
import io.paysession.command.TestDatabase;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.VaultKeyRing;
import io.paysession.command.vault.VaultedCard;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sandbox rails as the application wires them, on {@link TestDatabase}: their vault, hosted-page records
 * and ledger are tables.
 */
final class SandboxRailsOnPostgres {

    private static SandboxRailsOnPostgres instance;

    private final CardVault vault;
    private final SandboxScheduler scheduler;
    private final SandboxLedger ledger;
    private final SandboxInteractions interactions;
    private final AtomicLong ids = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 1_000);

    private SandboxRailsOnPostgres(DataSource dataSource) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
        Clock clock = Clock.systemUTC();
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        this.vault = new CardVault(jdbc, new VaultKeyRing("test-key", Map.of("test-key", new SecretKeySpec(key, "AES"))),
                clock);
        this.scheduler = new SandboxScheduler(new SandboxProperties(Duration.ofMillis(5), Duration.ofMillis(40), Duration.ofMinutes(20)));
        this.ledger = new SandboxLedger(jdbc, transactions, clock);
        this.interactions = new SandboxInteractions(jdbc, id -> "https://sandbox.example/sandbox/interactions/" + id,
                clock);
    }

    static synchronized SandboxRailsOnPostgres get() {
        if (instance == null) {
            instance = new SandboxRailsOnPostgres(TestDatabase.dataSource());
        }
        return instance;
    }

    SandboxCardAcquirer cardAcquirer() {
        return cardAcquirer(scheduler);
    }

    /** The card acquirer answering on {@code scheduler} (its latency), with this sandbox's vault and tables. */
    SandboxCardAcquirer cardAcquirer(SandboxScheduler scheduler) {
        return new SandboxCardAcquirer(vault, interactions, scheduler, ledger, Clock.systemUTC());
    }

    SandboxPayerRails payerRails() {
        return new SandboxPayerRails(interactions, scheduler, ledger);
    }

    SandboxPayoutBanks payoutBanks() {
        return new SandboxPayoutBanks(vault, new SandboxFpsDirectory(), scheduler, ledger);
    }

    SandboxInteractions interactions() {
        return interactions;
    }

    SandboxLedger ledger() {
        return ledger;
    }

    /** A card of the test-card table, vaulted, as a payment method. */
    CardMethod card(String number) {
        return card(number, YearMonth.now().plusYears(2), "123");
    }

    /** A card vaulted with this expiry and security code (none: {@code null}), as a payment method. */
    CardMethod card(String number, YearMonth expiry, String securityCode) {
        VaultedCard vaulted = vault.store("contract-shop", CardNumber.parse(number).orElseThrow(), expiry, securityCode);
        return new CardMethod(vaulted.token(), vaulted.brand().wireName(), vaulted.bin(), vaulted.last4());
    }

    /** A number for a new session, payment, payout or refund id. */
    long nextId() {
        return ids.incrementAndGet();
    }
}
