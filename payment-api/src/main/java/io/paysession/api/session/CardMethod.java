package io.paysession.api.session;

import java.util.Objects;

/**
 * A bank card held in the vault: the vault token stands for the number; brand, BIN and last four digits
 * are what responses show.
 */
public record CardMethod(String vaultToken, String brand, String bin, String last4) implements PaymentMethod {

    public CardMethod {
        Objects.requireNonNull(vaultToken, "vaultToken");
        Objects.requireNonNull(brand, "brand");
        Objects.requireNonNull(bin, "bin");
        Objects.requireNonNull(last4, "last4");
        // a guard against a full card number slipping into an event in the place of a BIN
        // (2 to 6 leading digits are shown: fewer than the BIN for 12 to 14 digit numbers, see CardNumber)
        if (!bin.matches("[0-9]{2,8}") || !last4.matches("[0-9]{4}")) {
            throw new IllegalArgumentException("a card shows 2 to 8 leading digits and 4 last digits");
        }
    }

    @Override
    public String wireType() {
        return "card";
    }

    @Override
    public boolean supportsHold() {
        return true;
    }

    @Override
    public boolean supportsRecurrentToken() {
        return true;
    }
}
