package io.paysession.api.session.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.RefundState;

import java.time.Instant;

/** A refund of a payment as partners see it; {@code chargeback} when the payer's bank took the money back. */
public record RefundView(String id,
                         RefundState state,
                         Instant createdAt,
                         Instant finishedAt,
                         Money amount,
                         JsonNode metadata,
                         ErrorDetails error,
                         boolean chargeback) {

    RefundView(String id, RefundState state, Instant createdAt, Instant finishedAt, Money amount, JsonNode metadata,
               ErrorDetails error) {
        this(id, state, createdAt, finishedAt, amount, metadata, error, false);
    }

    /** With its metadata erased ({@link PersonalData#erased}). */
    RefundView erased() {
        return new RefundView(id, state, createdAt, finishedAt, amount, PersonalData.erased(metadata, JsonNode.class),
                error, chargeback);
    }

    /** The outcome stayed unknown too long: {@code error}, not final (no {@code finished_at}). */
    RefundView inError(ErrorDetails reason) {
        return new RefundView(id, RefundState.ERROR, createdAt, null, amount, metadata, reason, chargeback);
    }

    RefundView finished(RefundState newState, ErrorDetails reason, Instant at) {
        return new RefundView(id, newState, createdAt, at, amount, metadata, reason, chargeback);
    }
}
