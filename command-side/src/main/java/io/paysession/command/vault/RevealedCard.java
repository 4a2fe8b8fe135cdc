package io.paysession.command.vault;

import java.time.YearMonth;
import java.util.Optional;

/**
 * A card taken out of the vault for a rail call. Only rail adapters hold one, briefly; its
 * {@code toString} never shows the number or the security code.
 */
public record RevealedCard(CardNumber number, YearMonth expiry, String securityCode) {

    public Optional<String> optionalSecurityCode() {
        return Optional.ofNullable(securityCode);
    }

    @Override
    public String toString() {
        return "RevealedCard[" + number.masked() + ", expiry=" + expiry + ", securityCode="
                + (securityCode == null ? "none" : "***") + "]";
    }
}
