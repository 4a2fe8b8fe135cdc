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
    }

    @Override
    public String wireType() {
        return "card";
    }
}
