package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.paysession.api.error.ErrorDetails;

import java.util.Objects;

/**
 * What a rail answered about a payment: paid (captured), authorized and held for a later capture,
 * declined, waiting for the payer, or not known (the rail did not answer in time; ask again).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
        @JsonSubTypes.Type(value = AuthorizationOutcome.Approved.class, name = "approved"),
        @JsonSubTypes.Type(value = AuthorizationOutcome.Held.class, name = "held"),
        @JsonSubTypes.Type(value = AuthorizationOutcome.Declined.class, name = "declined"),
        @JsonSubTypes.Type(value = AuthorizationOutcome.PayerActionRequired.class, name = "payer_action_required"),
        @JsonSubTypes.Type(value = AuthorizationOutcome.Unknown.class, name = "unknown")
})
public sealed interface AuthorizationOutcome {

    /** Paid: authorized and captured. */
    record Approved(TransactionInfo transactionInfo) implements AuthorizationOutcome {
        public Approved {
            Objects.requireNonNull(transactionInfo, "transactionInfo");
        }
    }

    /** Authorized and held, for a capture or release later. */
    record Held(TransactionInfo transactionInfo) implements AuthorizationOutcome {
        public Held {
            Objects.requireNonNull(transactionInfo, "transactionInfo");
        }
    }

    record Declined(ErrorDetails reason) implements AuthorizationOutcome {
        public Declined {
            Objects.requireNonNull(reason, "reason");
        }
    }

    record PayerActionRequired(CustomerInteraction interaction) implements AuthorizationOutcome {
        public PayerActionRequired {
            Objects.requireNonNull(interaction, "interaction");
        }
    }

    record Unknown(ErrorDetails reason) implements AuthorizationOutcome {
        public Unknown {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
