package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;

import java.util.Optional;

/**
 * The data of a payout as the partner gave it, validated by the gateway; any field may be absent until
 * the payout starts. Data given at {@code session/start/payout} replaces data given at create.
 */
public record PayoutData(PayoutMethod method,
                         Money amount,
                         JsonNode customer,
                         JsonNode participantDetails,
                         JsonNode metadata) {

    public static final PayoutData EMPTY = new PayoutData(null, null, null, null, null);

    public PayoutData overriddenBy(PayoutData later) {
        if (later == null) {
            return this;
        }
        return new PayoutData(
                later.method != null ? later.method : method,
                later.amount != null ? later.amount : amount,
                later.customer != null ? later.customer : customer,
                later.participantDetails != null ? later.participantDetails : participantDetails,
                later.metadata != null ? later.metadata : metadata);
    }

    /**
     * Why a payout cannot start with this data, if it cannot: a missing field, a card payout without the
     * recipient's full name, a bank-account payout without first and last name, or a payout to a Russian
     * card (MIR) in another currency than rub. A recipient verification needs no amount.
     */
    public Optional<String> problem() {
        if (method == null) {
            return Optional.of("payment_method (payout_details in API v2) is required to start a payout");
        }
        boolean verification = method instanceof PayoutMethod.FasterPaymentVerification;
        if (amount == null && !verification) {
            return Optional.of("amount_details is required to start a payout");
        }
        if (method instanceof PayoutMethod.Card card) {
            if (!recipientHas("full_name")) {
                return Optional.of("participant_details.recipient.full_name is required for card payouts");
            }
            if ("mir".equals(card.brand()) && !"rub".equals(amount.currencyCode())) {
                return Optional.of("amount_details.currency must be rub for payouts to Russian cards");
            }
        }
        if ((method instanceof PayoutMethod.Iban || verification) && !(recipientHas("first_name") && recipientHas("last_name"))) {
            return Optional.of("participant_details.recipient.first_name and last_name are required for this payout");
        }
        return Optional.empty();
    }

    /** Refuses ({@code invalid_request}, described by {@link #problem()}) data a payout cannot start with. */
    public void requireComplete() {
        problem().ifPresent(problem -> {
            throw PaymentsException.invalidRequest(problem);
        });
    }

    private boolean recipientHas(String field) {
        return participantDetails != null && participantDetails.path("recipient").path(field).isTextual()
                && !participantDetails.path("recipient").path(field).textValue().isBlank();
    }

    @JsonIgnore
    public boolean isEmpty() {
        return EMPTY.equals(this);
    }
}
