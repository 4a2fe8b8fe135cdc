package io.paysession.command.rails;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.TransactionInfo;

import java.util.Objects;

/**
 * A rail's answer to a capture: the hold was debited ({@code Captured}), or the rail cannot say yet
 * ({@code Unknown}: the engine asks again with {@link PaymentRail#queryCapture}). See docs/rails.md.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
        @JsonSubTypes.Type(value = CaptureOutcome.Captured.class, name = "captured"),
        @JsonSubTypes.Type(value = CaptureOutcome.Unknown.class, name = "unknown")
})
public sealed interface CaptureOutcome {

    record Captured(TransactionInfo transactionInfo) implements CaptureOutcome {
        public Captured {
            Objects.requireNonNull(transactionInfo, "transactionInfo");
        }
    }

    record Unknown(ErrorDetails reason) implements CaptureOutcome {
        public Unknown {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
