package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.paysession.api.error.ErrorDetails;

import java.util.Objects;

/** What a rail answered to an authorization: approved, or declined with a reason. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
        @JsonSubTypes.Type(value = AuthorizationOutcome.Approved.class, name = "approved"),
        @JsonSubTypes.Type(value = AuthorizationOutcome.Declined.class, name = "declined")
})
public sealed interface AuthorizationOutcome {

    record Approved(TransactionInfo transactionInfo) implements AuthorizationOutcome {
        public Approved {
            Objects.requireNonNull(transactionInfo, "transactionInfo");
        }
    }

    record Declined(ErrorDetails reason) implements AuthorizationOutcome {
        public Declined {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
