package io.paysession.api.session;

/** The e-wallet: the payer approves on the wallet's page after a redirect. */
public record WalletMethod() implements PaymentMethod {

    @Override
    public String wireType() {
        return "wallet";
    }

    @Override
    public boolean supportsRecurrentToken() {
        return true;
    }
}
