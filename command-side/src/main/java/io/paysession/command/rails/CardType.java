package io.paysession.command.rails;

/** What kind of account a card draws on, as the card's issuer range says; {@code unknown} when no one says. */
public enum CardType {
    DEBIT("debit"),
    CREDIT("credit"),
    PREPAID("prepaid"),
    UNKNOWN("unknown");

    private final String wireName;

    CardType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
