package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * How a payment is paid, as events carry it: never a card number or security code, only what the
 * vault hands out. The JSON type names are stored in events and never change.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = CardMethod.class, name = "card"),
        @JsonSubTypes.Type(value = WalletMethod.class, name = "wallet"),
        @JsonSubTypes.Type(value = BankAppMethod.class, name = "bank_app_pay"),
        @JsonSubTypes.Type(value = QrAppMethod.class, name = "qr_app_pay"),
        @JsonSubTypes.Type(value = FasterPaymentMethod.class, name = "faster_payment_system")
})
public sealed interface PaymentMethod permits CardMethod, WalletMethod, BankAppMethod, QrAppMethod, FasterPaymentMethod {

    /** The {@code payment_details.type} of the wire format. */
    String wireType();

    /** Whether the rail can hold the money for a later {@code session/capture} (cards and bank applications). */
    default boolean supportsHold() {
        return false;
    }
}
