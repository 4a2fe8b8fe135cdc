package io.paysession.gateway;

import io.paysession.command.RefusedConfigurationException;
import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.RsaSignatures;
import io.paysession.gateway.security.ServiceKeyStore;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The webhook-signing key at rest: what someone with a copy of the database (or of a backup) finds in
 * {@code service_key} is no private key, while webhooks keep verifying with {@code /service/public-key}; a clear
 * key left by the earlier version is encrypted by the next start, and a vault key rotation carries it along.
 */
class ServiceKeyAtRestTest extends EndToEndTestBase {

    /** The migration that encrypts the service key; the schema of the earlier version is everything before it. */
    private static final MigrationVersion ENCRYPTED = MigrationVersion.fromVersion("202611251417");

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private EmbeddedPostgresServer postgres;

    @Test
    void theDatabaseHoldsNoPrivateKeyAndWebhooksStillVerifyWithThePublishedKey() {
        TestPartner partner = registeredPartner("service-key");
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123"));
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.signatureValid()).as("verified with GET /service/public-key").isTrue();

        RSAPublicKey published = Pem.readRsaPublicKey(servicePublicKey).orElseThrow();
        assertHoldsNoPrivateKey(jdbc, published);
        assertThat(jdbc.queryForList("select private_key_vault_key_id from service_key", String.class))
                .containsOnly("vault-key-1");
    }

    @Test
    void aClearKeyOfTheEarlierVersionIsEncryptedByTheNextStartOnceAndStillSigns() {
        JdbcTemplate database = databaseOfTheEarlierVersion();
        KeyPair earlier = RsaSignatures.generateKeyPair();
        database.update("""
                        insert into service_key (key_id, private_key_pem, public_key_pem, active, created_at)
                        values ('service-key-1', ?, ?, true, now())""",
                Pem.write(earlier.getPrivate()), Pem.writePublic(earlier));
        migrate(database, MigrationVersion.LATEST);
        VaultKeyRing vault = ring("vault-key-1", aesKey());

        ServiceKeyStore upgraded = new ServiceKeyStore(database, Clock.systemUTC(), vault);

        assertHoldsNoPrivateKey(database, (RSAPublicKey) earlier.getPublic());
        assertThat(upgraded.keyId()).isEqualTo("service-key-1");
        assertThat(upgraded.publicKeyPem()).isEqualTo(Pem.writePublic(earlier));
        assertSignsWith(upgraded, earlier);
        byte[] sealed = ciphertext(database);

        ServiceKeyStore restarted = new ServiceKeyStore(database, Clock.systemUTC(), vault);

        assertThat(ciphertext(database)).as("a second start changes nothing").isEqualTo(sealed);
        assertSignsWith(restarted, earlier);
    }

    @Test
    void aVaultKeyRotationReEncryptsTheServiceKeyAndAMissingVaultKeyStopsTheStartClearly() {
        JdbcTemplate database = databaseOfTheEarlierVersion();
        migrate(database, MigrationVersion.LATEST);
        SecretKey first = aesKey();
        SecretKey second = aesKey();
        ServiceKeyStore generated = new ServiceKeyStore(database, Clock.systemUTC(), ring("vault-key-1", first));
        KeyPair published = new KeyPair(Pem.readRsaPublicKey(generated.publicKeyPem()).orElseThrow(), null);
        assertHoldsNoPrivateKey(database, (RSAPublicKey) published.getPublic());

        // the operator adds a new active vault key and keeps the previous one for a while
        assertSignsWith(new ServiceKeyStore(database, Clock.systemUTC(),
                new VaultKeyRing("vault-key-2", Map.of("vault-key-1", first, "vault-key-2", second))), published);
        assertThat(database.queryForObject("select private_key_vault_key_id from service_key", String.class))
                .isEqualTo("vault-key-2");
        // ...then retires it
        assertSignsWith(new ServiceKeyStore(database, Clock.systemUTC(), ring("vault-key-2", second)), published);
        byte[] sealed = ciphertext(database);

        assertThatThrownBy(() -> new ServiceKeyStore(database, Clock.systemUTC(), ring("vault-key-3", aesKey())))
                .isInstanceOf(RefusedConfigurationException.class)
                .hasMessageContaining("encrypted under vault key vault-key-2, which is not configured")
                .hasMessageContaining("payments.vault.previous-keys.vault-key-2");
        assertThat(ciphertext(database)).isEqualTo(sealed);
    }

    /**
     * No PEM, no key in the clear: a clear RSA private key in any encoding (PKCS#1, PKCS#8, PEM) contains the
     * modulus, which is public; the stored bytes must not, nor read as a key.
     */
    private static void assertHoldsNoPrivateKey(JdbcTemplate database, RSAPublicKey publicKey) {
        List<String> rows = database.queryForList("select t::text from service_key t", String.class);
        assertThat(rows).isNotEmpty().noneSatisfy(row -> assertThat(row).containsIgnoringCase("PRIVATE KEY"));
        assertThat(database.queryForList("select private_key_pem from service_key", String.class)).containsOnlyNulls();
        byte[] modulus = unsigned(publicKey.getModulus());
        for (byte[] stored : database.queryForList("select private_key_ciphertext from service_key", byte[].class)) {
            assertThat(stored).isNotNull();
            assertThat(indexOf(stored, modulus)).as("the modulus, part of every clear private key").isEqualTo(-1);
            assertThat(readsAsPrivateKey(stored)).isFalse();
            assertThat(readsAsPrivateKey(Arrays.copyOfRange(stored, 12, stored.length))).isFalse();
        }
    }

    private static void assertSignsWith(ServiceKeyStore store, KeyPair keys) {
        byte[] body = "{\"type\":\"payment_finished\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(RsaSignatures.verify(keys.getPublic(), body, store.sign(body).value())).isTrue();
    }

    /** A new database on the test suite's PostgreSQL, migrated as the version before the encryption left it. */
    private JdbcTemplate databaseOfTheEarlierVersion() {
        String name = "service_key_" + HexFormat.of().formatHex(randomBytes(6));
        jdbc.execute("create database " + name);
        JdbcTemplate database = new JdbcTemplate(new DriverManagerDataSource(
                postgres.jdbcUrl().replace("/postgres?", "/" + name + "?"), "postgres", postgres.password()));
        MigrationVersion earlier = Arrays.stream(flyway(database, MigrationVersion.LATEST).info().all())
                .map(MigrationInfo::getVersion).filter(version -> version.compareTo(ENCRYPTED) < 0)
                .max(Comparator.naturalOrder()).orElseThrow();
        migrate(database, earlier);
        assertThat(database.queryForObject("select count(*) from information_schema.columns where table_name = "
                + "'service_key' and column_name = 'private_key_ciphertext'", Integer.class)).isZero();
        return database;
    }

    private static void migrate(JdbcTemplate database, MigrationVersion target) {
        flyway(database, target).migrate();
    }

    private static Flyway flyway(JdbcTemplate database, MigrationVersion target) {
        return Flyway.configure().dataSource(database.getDataSource()).locations("classpath:db/migration")
                .target(target).load();
    }

    private static byte[] ciphertext(JdbcTemplate database) {
        return database.queryForObject("select private_key_ciphertext from service_key", byte[].class);
    }

    private static VaultKeyRing ring(String id, SecretKey key) {
        return new VaultKeyRing(id, Map.of(id, key));
    }

    private static SecretKey aesKey() {
        return new SecretKeySpec(randomBytes(32), "AES");
    }

    private static boolean readsAsPrivateKey(byte[] bytes) {
        try {
            KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(bytes));
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static byte[] unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        return bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
