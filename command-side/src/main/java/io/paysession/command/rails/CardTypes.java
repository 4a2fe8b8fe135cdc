package io.paysession.command.rails;

/**
 * The port of an issuer range directory (a BIN table, usually the acquirer's or a card scheme's): the type of
 * the cards of a range, by their leading digits. Optional: where no adapter is configured every card is
 * {@link CardType#UNKNOWN}, which partners must accept. Never given more than the leading digits a masked card
 * number shows.
 */
public interface CardTypes {

    /** The type of the cards whose number begins with {@code bin} (6 to 8 digits). */
    CardType typeOf(String bin);
}
