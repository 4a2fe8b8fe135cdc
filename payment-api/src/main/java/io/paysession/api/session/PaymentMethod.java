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
        @JsonSubTypes.Type(value = FasterPaymentMethod.class, name = "faster_payment_system"),
        @JsonSubTypes.Type(value = FasterPaymentBindingMethod.class, name = "faster_payment_system_binding"),
        @JsonSubTypes.Type(value = RecurrentMethod.class, name = "recurrent")
})
public sealed interface PaymentMethod permits CardMethod, WalletMethod, BankAppMethod, QrAppMethod, FasterPaymentMethod,
        FasterPaymentBindingMethod, RecurrentMethod {

    /** The {@code payment_details.type} of the wire format. */
    String wireType();

    /** Whether the rail can hold the money for a later {@code session/capture} (cards and bank applications). */
    default boolean supportsHold() {
        return false;
    }

    /** Whether a recurrent token may be asked for with this method (cards, bank application, wallet, instant payments). */
    default boolean supportsRecurrentToken() {
        return false;
    }

    /** Whether the money is really taken: a binding of an instant-payment account charges nothing. */
    default boolean charges() {
        return true;
    }
}
