package io.paysession.gateway.sandbox;

import io.paysession.command.rails.sandbox.ConditionalOnSandboxRails;
import io.paysession.command.vault.VaultKeyRing;
import org.springframework.stereotype.Component;

import javax.crypto.Mac;
import javax.crypto.SecretKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The form token of a hosted payer page: HMAC-SHA256 of the interaction's id under a key derived from the
 * active vault key. It is the same on every node and for the interaction's whole life (the interaction itself
 * answers once), is written only into the page's body (never into an address, so no log, proxy or
 * {@code Referer} carries it), and cannot be computed without the vault key. A vault key rotation invalidates
 * the tokens of pages already open: the payer reloads the page.
 */
@Component
@ConditionalOnSandboxRails
public class PayerPageTokens {

    private static final String PURPOSE = "sandbox-payer-page-form-token";

    private final SecretKey key;

    public PayerPageTokens(VaultKeyRing keys) {
        this.key = keys.derivedKey(keys.activeKeyId(), PURPOSE).orElseThrow();
    }

    public String tokenFor(String interactionId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(("payer-page|" + interactionId).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** Whether {@code given} is the token of this interaction's page, in a time that tells nothing of it. */
    public boolean accepts(String interactionId, String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                tokenFor(interactionId).getBytes(StandardCharsets.UTF_8));
    }
}
