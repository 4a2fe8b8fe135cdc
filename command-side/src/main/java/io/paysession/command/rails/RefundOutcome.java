package io.paysession.command.rails;

import io.paysession.api.error.ErrorDetails;

/** A rail's answer to a refund. */
public sealed interface RefundOutcome {

    record Accepted() implements RefundOutcome {
    }

    record Declined(ErrorDetails reason) implements RefundOutcome {
    }
}
