package io.paysession.api.session;

/** A QR-code application payment ({@code internet_banking}, {@code qr_app_pay}) with its phone and channel. */
public record QrAppMethod(String phone, String channel) implements PaymentMethod {

    @Override
    public String wireType() {
        return "internet_banking";
    }
}
