package io.paysession.command.rails.sandbox;

/** What the payer does on a hosted page; the page's wording depends on it. */
public enum InteractionKind {
    THREE_D_SECURE,
    WALLET,
    BANK_APP,
    QR_APP,
    FASTER_PAYMENT
}
