package io.paysession.api.session.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.TransactionInfo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** A payment as partners see it, in no API version's naming yet. Absent values are {@code null}. */
public record PaymentView(String id,
                          OperationState state,
                          Instant createdAt,
                          Instant finishedAt,
                          PaymentData data,
                          CustomerInteraction customerInteraction,
                          Money capturedAmount,
                          Money merchantFee,
                          TransactionInfo transactionInfo,
                          ErrorDetails error,
                          List<RefundView> refunds,
                          RecurrentGrant recurrent) {

    /**
     * The recurrent token a successful payment granted: active until {@code finishedAt} (null while it is), the
     * time the partner disabled it.
     */
    public record RecurrentGrant(String token, Instant createdAt, Instant finishedAt) {
        public boolean active() {
            return finishedAt == null;
        }
    }

    public PaymentView {
        refunds = refunds == null ? List.of() : List.copyOf(refunds);
    }

    static PaymentView started(String id, PaymentData data, Instant at) {
        return new PaymentView(id, OperationState.IN_PROGRESS, at, null, data, null, null, null, null, null, List.of(),
                null);
    }

    /** With its personal data erased ({@link PersonalData#erased}): its data, transaction info and refunds' metadata. */
    PaymentView erased() {
        return new PaymentView(id, state, createdAt, finishedAt, PersonalData.erased(data, PaymentData.class),
                customerInteraction, capturedAmount, merchantFee,
                PersonalData.erased(transactionInfo, TransactionInfo.class),
                error, refunds.stream().map(RefundView::erased).toList(), recurrent);
    }

    PaymentView inState(OperationState newState) {
        return new PaymentView(id, newState, createdAt, finishedAt, data, customerInteraction, capturedAmount,
                merchantFee, transactionInfo, error, refunds, recurrent);
    }

    PaymentView awaitingPayer(CustomerInteraction interaction) {
        return new PaymentView(id, OperationState.AWAITING_PAYER_ACTION, createdAt, finishedAt, data, interaction,
                capturedAmount, merchantFee, transactionInfo, null, refunds, recurrent);
    }

    PaymentView held(TransactionInfo info) {
        return new PaymentView(id, OperationState.AWAITING_CAPTURE, createdAt, finishedAt, data, customerInteraction,
                capturedAmount, merchantFee, merged(info), null, refunds, recurrent);
    }

    PaymentView capturing(Money amount) {
        return new PaymentView(id, OperationState.CAPTURING, createdAt, finishedAt, data, customerInteraction, amount,
                merchantFee, transactionInfo, error, refunds, recurrent);
    }

    PaymentView succeeded(TransactionInfo info, Money captured, Money fee, Instant at) {
        return new PaymentView(id, OperationState.SUCCEEDED, createdAt, at, data, customerInteraction, captured, fee,
                merged(info), null, refunds, recurrent);
    }

    /** The outcome stayed unknown too long: {@code failed}, not final, with the session in {@code error}. */
    PaymentView inError(ErrorDetails failure) {
        return new PaymentView(id, OperationState.ERROR, createdAt, finishedAt, data, customerInteraction,
                capturedAmount, merchantFee, transactionInfo, failure, refunds, recurrent);
    }

    PaymentView failed(ErrorDetails failure, Instant at) {
        return new PaymentView(id, OperationState.FAILED, createdAt, at, data, customerInteraction, capturedAmount,
                merchantFee, transactionInfo, failure, refunds, recurrent);
    }

    PaymentView withRefundAdded(RefundView refund) {
        List<RefundView> all = new ArrayList<>(refunds);
        all.add(refund);
        return new PaymentView(id, state, createdAt, finishedAt, data, customerInteraction, capturedAmount,
                merchantFee, transactionInfo, error, all, recurrent);
    }

    PaymentView withRefund(String refundId, UnaryOperator<RefundView> change) {
        return new PaymentView(id, state, createdAt, finishedAt, data, customerInteraction, capturedAmount,
                merchantFee, transactionInfo, error,
                refunds.stream().map(refund -> refund.id().equals(refundId) ? change.apply(refund) : refund).toList(), recurrent);
    }

    PaymentView withRecurrent(String token, Instant at) {
        return new PaymentView(id, state, createdAt, finishedAt, data, customerInteraction, capturedAmount,
                merchantFee, transactionInfo, error, refunds, new RecurrentGrant(token, at, null));
    }

    /** The granted token {@code token} was disabled at {@code at}; another token, or none, is left alone. */
    PaymentView withRecurrentFinished(String token, Instant at) {
        if (recurrent == null || !recurrent.token().equals(token) || !recurrent.active()) {
            return this;
        }
        return new PaymentView(id, state, createdAt, finishedAt, data, customerInteraction, capturedAmount,
                merchantFee, transactionInfo, error, refunds, new RecurrentGrant(token, recurrent.createdAt(), at));
    }

    private TransactionInfo merged(TransactionInfo later) {
        return transactionInfo == null ? later : transactionInfo.mergedWith(later);
    }

    public JsonNode customer() {
        return data.customer();
    }
}
