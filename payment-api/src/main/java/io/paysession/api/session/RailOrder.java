package io.paysession.api.session;

import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;

import java.util.Objects;

/**
 * What a rail must know to process a payment, carried by the events that make the payment process call a
 * rail: the method (a vault token for cards, never a card number), the amount, whether to hold the money
 * for a later capture, and where the payer goes back after acting.
 */
public record RailOrder(PaymentMethod method, Money amount, CaptureMode captureMode, String returnUrl) {

    public RailOrder {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(captureMode, "captureMode");
    }

    /** Money is held for {@code session/capture} only when the partner captures later and the method can hold. */
    public boolean holds() {
        return captureMode == CaptureMode.DELAYED && method.supportsHold();
    }
}
