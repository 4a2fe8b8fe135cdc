package io.paysession.command.vault;

/** What the vault hands out for a stored card: a token and what may be shown. */
public record VaultedCard(String token, CardBrand brand, String bin, String last4) {
}
