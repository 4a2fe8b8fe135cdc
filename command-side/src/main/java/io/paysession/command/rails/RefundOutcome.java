package io.paysession.command.rails;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.paysession.api.error.ErrorDetails;

import java.util.Objects;

/**
 * A rail's answer to a refund: paid back ({@code Accepted}), refused ({@code Declined}), or not known yet
 * ({@code Unknown}: the engine asks again with {@link PaymentRail#queryRefund}). See docs/rails.md.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
        @JsonSubTypes.Type(value = RefundOutcome.Accepted.class, name = "accepted"),
        @JsonSubTypes.Type(value = RefundOutcome.Declined.class, name = "declined"),
        @JsonSubTypes.Type(value = RefundOutcome.Unknown.class, name = "unknown")
})
public sealed interface RefundOutcome {

    record Accepted() implements RefundOutcome {
    }

    record Declined(ErrorDetails reason) implements RefundOutcome {
        public Declined {
            Objects.requireNonNull(reason, "reason");
        }
    }

    record Unknown(ErrorDetails reason) implements RefundOutcome {
        public Unknown {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
