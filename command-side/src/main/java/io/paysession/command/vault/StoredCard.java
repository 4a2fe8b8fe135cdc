package io.paysession.command.vault;

/**
 * A card in the vault as it may be shown: brand, leading digits ({@code bin}, see {@link CardNumber#bin}) and last
 * four digits, and the project it belongs to.
 */
public record StoredCard(String token, String project, String brand, String bin, String last4) {
}
