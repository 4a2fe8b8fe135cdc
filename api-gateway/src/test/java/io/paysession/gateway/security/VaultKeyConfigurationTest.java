package io.paysession.gateway.security;

import io.paysession.command.vault.VaultKeyRing;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The vault's older keys, as an operator configures them during a rotation: {@code payments.vault.previous-keys.<id>}
 * in a file or on the command line, {@code PAYMENTS_VAULT_PREVIOUS_KEYS} in the environment (a key id has dashes,
 * which environment variable names cannot carry).
 */
class VaultKeyConfigurationTest {

    private static final String ACTIVE = aesKey();
    private static final String FIRST = aesKey();
    private static final String SECOND = aesKey();

    @Test
    void previousKeysAreReadAsPropertiesAndFromTheEnvironmentList() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("payments.vault.previous-keys.vault-key-1", FIRST)
                .withProperty("PAYMENTS_VAULT_PREVIOUS_KEYS", "vault-key-0=" + SECOND + " , ");

        Map<String, String> previous = VaultKeyConfiguration.previousKeys(environment);

        assertThat(previous).containsOnly(Map.entry("vault-key-1", FIRST), Map.entry("vault-key-0", SECOND));
        VaultKeyRing ring = VaultKeyConfiguration.keyRing(ACTIVE, "vault-key-2", previous, true, null);
        assertThat(ring.activeKeyId()).isEqualTo("vault-key-2");
        assertThat(ring.keyIds()).containsExactlyInAnyOrder("vault-key-0", "vault-key-1", "vault-key-2");
    }

    @Test
    void withoutPreviousKeysTheRingHoldsTheActiveOneOnly() {
        Map<String, String> previous = VaultKeyConfiguration.previousKeys(new MockEnvironment());

        assertThat(previous).isEmpty();
        assertThat(VaultKeyConfiguration.keyRing(ACTIVE, "vault-key-1", previous, true, null).keyIds())
                .containsExactly("vault-key-1");
    }

    @Test
    void aMalformedEnvironmentListIsRefusedNamingTheVariable() {
        for (String list : new String[]{"vault-key-1", "=" + FIRST, "vault-key-1="}) {
            MockEnvironment environment = new MockEnvironment().withProperty("PAYMENTS_VAULT_PREVIOUS_KEYS", list);
            assertThatThrownBy(() -> VaultKeyConfiguration.previousKeys(environment)).as(list)
                    .hasMessageContaining("PAYMENTS_VAULT_PREVIOUS_KEYS");
        }
    }

    private static String aesKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
