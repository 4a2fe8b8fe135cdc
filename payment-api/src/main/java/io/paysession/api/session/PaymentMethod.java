package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * How a payment is paid, as events carry it: never a card number or security code, only what the
 * vault hands out. The JSON type names are stored in events and never change.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = CardMethod.class, name = "card")
})
public sealed interface PaymentMethod permits CardMethod {

    /** The {@code payment_details.type} of the wire format. */
    String wireType();
}
