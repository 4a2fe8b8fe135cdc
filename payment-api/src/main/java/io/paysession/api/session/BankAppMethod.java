package io.paysession.api.session;

/**
 * A bank-application payment ({@code internet_banking}, {@code bank_app_pay}): the redirect opens the
 * payer's bank application on mobile, or is shown as a QR code on desktop. Can be held for capture.
 */
public record BankAppMethod() implements PaymentMethod {

    @Override
    public String wireType() {
        return "internet_banking";
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
