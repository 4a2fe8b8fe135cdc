package io.paysession.api.session.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.TransactionInfo;

import java.time.Instant;

/** A payment as partners see it, in no API version's naming yet. Absent values are {@code null}. */
public record PaymentView(String id,
                          OperationState state,
                          Instant createdAt,
                          Instant finishedAt,
                          PaymentData data,
                          Money merchantFee,
                          TransactionInfo transactionInfo,
                          ErrorDetails error) {

    static PaymentView started(String id, PaymentData data, Instant at) {
        return new PaymentView(id, OperationState.IN_PROGRESS, at, null, data, null, null, null);
    }

    PaymentView inState(OperationState newState) {
        return new PaymentView(id, newState, createdAt, finishedAt, data, merchantFee, transactionInfo, error);
    }

    PaymentView succeeded(TransactionInfo info, Money fee, Instant at) {
        return new PaymentView(id, OperationState.SUCCEEDED, createdAt, at, data, fee, info, null);
    }

    PaymentView failed(ErrorDetails failure, Instant at) {
        return new PaymentView(id, OperationState.FAILED, createdAt, at, data, merchantFee, transactionInfo, failure);
    }

    public JsonNode customer() {
        return data.customer();
    }
}
