package io.paysession.command.vault;

import io.paysession.command.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The card vault against its key ring, on command-side's own PostgreSQL: what is stored is ciphertext bound to
 * its entry, a rotated ring still reads entries of its retired key, a ring without that key refuses to read them
 * and says which key is missing (never what the entry holds), and security codes go when they are erased.
 */
class CardVaultTest {

    private static final JdbcTemplate JDBC = new JdbcTemplate(TestDatabase.dataSource());
    private static final CardNumber VISA = CardNumber.parse("4242424242424242").orElseThrow();
    private static final YearMonth EXPIRY = YearMonth.of(2034, 12);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-25T10:00:00Z"), ZoneOffset.UTC);

    private final SecretKey first = randomKey();
    private final SecretKey second = randomKey();

    @Test
    void aStoredCardIsCiphertextAndComesBackWhole() {
        CardVault vault = vault(new VaultKeyRing("key-1", Map.of("key-1", first)));

        VaultedCard stored = vault.store("shop", VISA, EXPIRY, "123");

        byte[] pan = JDBC.queryForObject("select pan_ciphertext from card_vault where token = ?", byte[].class,
                stored.token());
        assertThat(new String(pan, StandardCharsets.ISO_8859_1)).doesNotContain("4242424242424242");
        assertThat(JDBC.queryForObject("select key_id from card_vault where token = ?", String.class, stored.token()))
                .isEqualTo("key-1");
        RevealedCard revealed = vault.reveal(stored.token()).orElseThrow();
        assertThat(revealed.number().digits()).isEqualTo("4242424242424242");
        assertThat(revealed.expiry()).isEqualTo(EXPIRY);
        assertThat(revealed.securityCode()).isEqualTo("123");
        assertThat(revealed.toString()).doesNotContain("4242424242424242").doesNotContain("123]");
        assertThat(vault.describe(stored.token()).orElseThrow().last4()).isEqualTo("4242");
    }

    @Test
    void aRotatedRingReadsEntriesOfItsRetiredKeyAndStoresNewOnesUnderTheActiveOne() {
        VaultedCard old = vault(new VaultKeyRing("key-1", Map.of("key-1", first))).store("shop", VISA, EXPIRY, "123");

        CardVault rotated = vault(new VaultKeyRing("key-2", Map.of("key-2", second, "key-1", first)));
        VaultedCard fresh = rotated.store("shop", VISA, EXPIRY, null);

        assertThat(rotated.reveal(old.token()).orElseThrow().number().digits()).isEqualTo("4242424242424242");
        assertThat(rotated.reveal(old.token()).orElseThrow().securityCode()).isEqualTo("123");
        assertThat(JDBC.queryForObject("select key_id from card_vault where token = ?", String.class, fresh.token()))
                .isEqualTo("key-2");
        assertThat(rotated.reveal(fresh.token()).orElseThrow().optionalSecurityCode()).isEmpty();
    }

    @Test
    void aRingWithoutTheEntrysKeyRefusesToReadItAndNamesTheKeyNotTheCard() {
        VaultedCard old = vault(new VaultKeyRing("key-1", Map.of("key-1", first))).store("shop", VISA, EXPIRY, "123");
        CardVault withoutIt = vault(new VaultKeyRing("key-2", Map.of("key-2", second)));

        assertThatThrownBy(() -> withoutIt.reveal(old.token()))
                .hasMessageContaining("key-1")
                .hasMessageNotContaining("4242424242424242");
    }

    @Test
    void aKeyOfTheSameIdButOtherBytesCannotDecryptAndAMovedCiphertextDoesNotOpenAnotherEntry() {
        VaultedCard stored = vault(new VaultKeyRing("key-1", Map.of("key-1", first))).store("shop", VISA, EXPIRY, "123");
        CardVault impostor = vault(new VaultKeyRing("key-1", Map.of("key-1", second)));
        assertThatThrownBy(() -> impostor.reveal(stored.token()))
                .hasMessageContaining(stored.token()).hasMessageNotContaining("4242424242424242");

        // the ciphertext is bound to its entry (token and field as associated data): copied into another entry
        // of the same key, it does not decrypt there
        CardVault vault = vault(new VaultKeyRing("key-1", Map.of("key-1", first)));
        VaultedCard other = vault.store("shop", CardNumber.parse("5555555555554444").orElseThrow(), EXPIRY, null);
        JDBC.update("update card_vault set pan_ciphertext = (select pan_ciphertext from card_vault where token = ?) "
                + "where token = ?", stored.token(), other.token());
        assertThatThrownBy(() -> vault.reveal(other.token())).hasMessageContaining(other.token());
    }

    @Test
    void securityCodesAreErasedBySessionAndByAge() {
        CardVault vault = vault(new VaultKeyRing("key-1", Map.of("key-1", first)));
        String session = "ps_" + Math.abs(UUID.randomUUID().getMostSignificantBits());
        SealedCard sealed = vault.seal("shop", VISA, EXPIRY, "123");
        vault.insert(sealed, session);
        VaultedCard other = vault.store("shop", VISA, EXPIRY, "456");

        assertThat(vault.eraseSecurityCodesOfSession(session)).isEqualTo(1);
        assertThat(vault.reveal(sealed.token()).orElseThrow().optionalSecurityCode()).isEmpty();
        assertThat(vault.reveal(sealed.token()).orElseThrow().number().digits()).isEqualTo("4242424242424242");
        assertThat(vault.reveal(other.token()).orElseThrow().securityCode()).as("another session's").isEqualTo("456");
        assertThat(JDBC.queryForObject("select cvc_ciphertext is null and cvc_erased_at is not null from card_vault "
                + "where token = ?", Boolean.class, sealed.token())).isTrue();

        // by age: a code stored long ago goes, a younger one stays (the instant is far in the past, so that the
        // codes other test classes keep in this shared database are not touched)
        Instant longAgo = Instant.parse("2001-01-01T00:00:00Z");
        VaultedCard ancient = new CardVault(JDBC, new VaultKeyRing("key-1", Map.of("key-1", first)),
                Clock.fixed(longAgo.minusSeconds(60), ZoneOffset.UTC)).store("shop", VISA, EXPIRY, "789");
        assertThat(vault.eraseSecurityCodesStoredBefore(longAgo)).isPositive();
        assertThat(vault.reveal(ancient.token()).orElseThrow().optionalSecurityCode()).isEmpty();
        assertThat(vault.reveal(other.token()).orElseThrow().securityCode()).isEqualTo("456");
    }

    private static CardVault vault(VaultKeyRing ring) {
        return new CardVault(JDBC, ring, CLOCK);
    }

    private static SecretKey randomKey() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return new SecretKeySpec(bytes, "AES");
    }
}
