package io.paysession.api.session;

/**
 * Binding an instant-payment account for recurring payments without a charge: the 1 minor unit of the
 * request is not taken, and the payment's token arrives in {@code payment_finished}.
 */
public record FasterPaymentBindingMethod() implements PaymentMethod {

    @Override
    public String wireType() {
        return "faster_payment_system_binding";
    }

    @Override
    public boolean supportsRecurrentToken() {
        return true;
    }

    @Override
    public boolean charges() {
        return false;
    }
}
