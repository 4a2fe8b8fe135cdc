package io.paysession.api.session;

/** The instant-payment system; {@code description} is the optional payment purpose. */
public record FasterPaymentMethod(String description) implements PaymentMethod {

    @Override
    public String wireType() {
        return "faster_payment_system";
    }

    @Override
    public boolean supportsRecurrentToken() {
        return true;
    }
}
