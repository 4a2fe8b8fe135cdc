package io.paysession.api.session.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.RefundState;

import java.time.Instant;

/** A refund of a payment as partners see it. */
public record RefundView(String id,
                         RefundState state,
                         Instant createdAt,
                         Instant finishedAt,
                         Money amount,
                         JsonNode metadata,
                         ErrorDetails error) {

    /** The outcome stayed unknown too long: {@code error}, not final (no {@code finished_at}). */
    RefundView inError(ErrorDetails reason) {
        return new RefundView(id, RefundState.ERROR, createdAt, null, amount, metadata, reason);
    }

    RefundView finished(RefundState newState, ErrorDetails reason, Instant at) {
        return new RefundView(id, newState, createdAt, at, amount, metadata, reason);
    }
}
