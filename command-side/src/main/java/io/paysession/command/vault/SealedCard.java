package io.paysession.command.vault;

import java.time.YearMonth;

/**
 * A card encrypted for the vault but not yet stored: the request that brought it stores it in the transaction
 * of the command it sends ({@link CardsVaultedWithCommands}), so that a command the session refuses leaves no
 * vault entry behind. Holds ciphertexts only; its {@code toString} shows what may be shown.
 */
public final class SealedCard {

    private final String token;
    private final String project;
    private final String keyId;
    private final byte[] panCiphertext;
    private final byte[] cvcCiphertext;
    private final YearMonth expiry;
    private final CardBrand brand;
    private final String bin;
    private final String last4;

    SealedCard(String token, String project, String keyId, byte[] panCiphertext, byte[] cvcCiphertext,
               YearMonth expiry, CardBrand brand, String bin, String last4) {
        this.token = token;
        this.project = project;
        this.keyId = keyId;
        this.panCiphertext = panCiphertext;
        this.cvcCiphertext = cvcCiphertext;
        this.expiry = expiry;
        this.brand = brand;
        this.bin = bin;
        this.last4 = last4;
    }

    /** The token and what may be shown of the card, as the vault hands it out. */
    public VaultedCard vaulted() {
        return new VaultedCard(token, brand, bin, last4);
    }

    String token() {
        return token;
    }

    String project() {
        return project;
    }

    String keyId() {
        return keyId;
    }

    byte[] panCiphertext() {
        return panCiphertext;
    }

    byte[] cvcCiphertext() {
        return cvcCiphertext;
    }

    YearMonth expiry() {
        return expiry;
    }

    CardBrand brand() {
        return brand;
    }

    String bin() {
        return bin;
    }

    String last4() {
        return last4;
    }

    @Override
    public String toString() {
        return "SealedCard[" + token + ", " + brand.wireName() + " " + bin + "…" + last4 + "]";
    }
}
