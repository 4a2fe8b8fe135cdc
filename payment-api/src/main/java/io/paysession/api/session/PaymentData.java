package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.partner.PartnerTerms;

import java.util.Optional;

/**
 * The data of a payment as the partner gave it, validated by the gateway; any field may be absent.
 * {@code session/create} may give some of it, {@code session/start/payment} the rest; data given at
 * start replaces data given earlier. Free-form partner data ({@code customer}, {@code payment_options},
 * {@code participant_details}, {@code metadata}) is kept as given and echoed back; {@code items} is kept
 * (accepted data is never dropped) but the wire format of a payment does not show it.
 */
public record PaymentData(PaymentMethod method,
                          Money amount,
                          JsonNode customer,
                          JsonNode paymentOptions,
                          JsonNode participantDetails,
                          JsonNode metadata,
                          JsonNode items) {

    public static final PaymentData EMPTY = new PaymentData(null, null, null, null, null, null, null);

    /** This data with every field that {@code later} gives replaced by it. */
    public PaymentData overriddenBy(PaymentData later) {
        if (later == null) {
            return this;
        }
        return new PaymentData(
                later.method != null ? later.method : method,
                later.amount != null ? later.amount : amount,
                later.customer != null ? later.customer : customer,
                later.paymentOptions != null ? later.paymentOptions : paymentOptions,
                later.participantDetails != null ? later.participantDetails : participantDetails,
                later.metadata != null ? later.metadata : metadata,
                later.items != null ? later.items : items);
    }

    /** The wire name of the first field a payment cannot start without, if one is missing. */
    public Optional<String> missingRequiredField() {
        if (method == null) {
            return Optional.of("payment_details");
        }
        if (amount == null) {
            return Optional.of("amount_details");
        }
        if (customer == null) {
            return Optional.of("customer");
        }
        return Optional.empty();
    }

    /**
     * Refuses ({@code invalid_request}) data a payment cannot start with: a missing required field, or a
     * binding ({@code faster_payment_system_binding}) whose amount is not 1 or that does not ask for a
     * recurrent token.
     */
    public void requireComplete() {
        missingRequiredField().ifPresent(field -> {
            throw PaymentsException.invalidRequest(field + " is required to start a payment");
        });
        if (method instanceof FasterPaymentBindingMethod) {
            if (amount.minorUnits() != 1) {
                throw PaymentsException.invalidRequest(
                        "amount_details.amount must be 1 for faster_payment_system_binding (it is not charged)");
            }
            if (!recurrentRequested()) {
                throw PaymentsException.invalidRequest(
                        "payment_options.recurrent must be true for faster_payment_system_binding");
            }
        }
    }

    /** Where the payer goes back after acting: {@code payment_options.return_url} when it is a string. */
    @JsonIgnore
    public Optional<String> returnUrl() {
        return Optional.ofNullable(paymentOptions)
                .map(options -> options.path("return_url"))
                .filter(JsonNode::isTextual)
                .map(JsonNode::textValue);
    }

    /** What a rail must know to process this (complete) payment for a partner with {@code terms}. */
    public RailOrder railOrder(PartnerTerms terms) {
        return new RailOrder(method, amount, terms.captureMode(), returnUrl().orElse(null));
    }

    /** Whether this payment, once paid, grants a recurrent token: it asked for one and its method supports it. */
    @JsonIgnore
    public boolean grantsRecurrentToken() {
        return recurrentRequested() && method != null && method.supportsRecurrentToken();
    }

    /**
     * Whether the partner asked for a recurrent token: {@code payment_options.recurrent} true (or the string
     * {@code "true"}), also inside {@code platform_details} as the spec's example has it.
     */
    @JsonIgnore
    public boolean recurrentRequested() {
        return paymentOptions != null && (isTrue(paymentOptions.path("recurrent"))
                || isTrue(paymentOptions.path("platform_details").path("recurrent")));
    }

    private static boolean isTrue(JsonNode value) {
        return value.isBoolean() ? value.booleanValue() : value.isTextual() && "true".equalsIgnoreCase(value.textValue());
    }

    @JsonIgnore
    public boolean isEmpty() {
        return EMPTY.equals(this);
    }
}
