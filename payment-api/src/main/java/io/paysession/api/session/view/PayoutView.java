package io.paysession.api.session.view;

import io.paysession.api.erasure.PersonalData;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.TransactionInfo;

import java.time.Instant;

/** A payout as partners see it, in no API version's naming yet. Absent values are {@code null}. */
public record PayoutView(String id,
                         OperationState state,
                         Instant createdAt,
                         Instant finishedAt,
                         PayoutData data,
                         TransactionInfo transactionInfo,
                         ErrorDetails error) {

    static PayoutView started(String id, PayoutData data, Instant at) {
        return new PayoutView(id, OperationState.IN_PROGRESS, at, null, data, null, null);
    }

    /** With its personal data erased ({@link PersonalData#erased}). */
    PayoutView erased() {
        return new PayoutView(id, state, createdAt, finishedAt, PersonalData.erased(data, PayoutData.class),
                PersonalData.erased(transactionInfo, TransactionInfo.class), error);
    }

    PayoutView inState(OperationState newState) {
        return new PayoutView(id, newState, createdAt, finishedAt, data, transactionInfo, error);
    }

    PayoutView succeeded(TransactionInfo info, Instant at) {
        return new PayoutView(id, OperationState.SUCCEEDED, createdAt, at, data, info, null);
    }

    PayoutView failed(ErrorDetails failure, Instant at) {
        return new PayoutView(id, OperationState.FAILED, createdAt, at, data, transactionInfo, failure);
    }

    /** The outcome stayed unknown too long: {@code failed}, not final, with the session in {@code error}. */
    PayoutView inError(ErrorDetails failure) {
        return new PayoutView(id, OperationState.ERROR, createdAt, finishedAt, data, transactionInfo, failure);
    }

    /**
     * A payout being sent is {@code in_progress}; only waiting for the partner's confirmation is {@code pending};
     * one in error shows {@code failed}, as the session's {@code error} says, not final.
     */
    public String wireStatus() {
        return state == OperationState.AWAITING_CONFIRMATION ? "pending"
                : state.isFinal() || state == OperationState.ERROR ? state.wireStatus() : "in_progress";
    }
}
