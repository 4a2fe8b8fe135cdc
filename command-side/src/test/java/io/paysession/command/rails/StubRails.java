package io.paysession.command.rails;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.TransactionInfo;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A payment and payout rail that answers what the test told it, in the manner of Kill Bill's mock payment
 * plugin: each kind of call ({@link Call}) answers its next scripted {@link Reply} (an outcome, an exception
 * thrown at the call, a failed answer, or no answer at all), and, once the script is used up, a healthy rail's
 * answer (pre-check passed; approved, or held when the order holds; captured; refund accepted; payout paid).
 * Every call is recorded with its operation id, so that a test can say "authorized exactly once", "queried, never
 * sent again". It handles every payment method. Nothing here is asynchronous: an answer is a completed stage, a
 * failed one, or one that never completes.
 */
public final class StubRails implements PaymentRail, PayoutRail {

    /** The answer the stub gives when nothing else was scripted: what a real rail's approvals carry. */
    public static final TransactionInfo TRANSACTION = TransactionInfo.card("123456789012", "A1B2C3");

    /** A kind of call, typed by what the rail answers to it. */
    public static final class Call<T> {

        public static final Call<PrecheckResult> PRECHECK = new Call<>("precheck");
        public static final Call<AuthorizationOutcome> AUTHORIZE = new Call<>("authorize");
        public static final Call<AuthorizationOutcome> QUERY_AUTHORIZATION = new Call<>("query authorization");
        public static final Call<CaptureOutcome> CAPTURE = new Call<>("capture");
        public static final Call<CaptureOutcome> QUERY_CAPTURE = new Call<>("query capture");
        public static final Call<Void> RELEASE = new Call<>("release");
        public static final Call<RefundOutcome> REFUND = new Call<>("refund");
        public static final Call<RefundOutcome> QUERY_REFUND = new Call<>("query refund");
        public static final Call<PrecheckResult> PAYOUT_PRECHECK = new Call<>("payout precheck");
        public static final Call<AuthorizationOutcome> PAYOUT_SEND = new Call<>("payout send");
        public static final Call<AuthorizationOutcome> QUERY_PAYOUT = new Call<>("query payout");

        private final String name;

        private Call(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** How the rail answers one call. */
    public sealed interface Reply<T> {

        /** The rail answers {@code outcome}. */
        record Answer<T>(T outcome) implements Reply<T> {
        }

        /** The call itself throws (the connection broke while the request was sent). */
        record Throws<T>(RuntimeException exception) implements Reply<T> {
        }

        /** The call returns, and its answer fails (an HTTP 502 from the provider). */
        record Fails<T>(Throwable cause) implements Reply<T> {
        }

        /** The answer never comes: the engine's answer time-out runs out. */
        record Silence<T>() implements Reply<T> {
        }

        /** The answer comes when the test completes {@code answer}: a rail that takes its time. */
        record Later<T>(CompletableFuture<T> answer) implements Reply<T> {
        }

        static <T> Reply<T> answer(T outcome) {
            return new Answer<>(Objects.requireNonNull(outcome, "outcome"));
        }

        static <T> Reply<T> throwing() {
            return new Throws<>(new IllegalStateException("connection reset after the request was sent"));
        }

        static <T> Reply<T> failing() {
            return new Fails<>(new IllegalStateException("HTTP 502 from the provider"));
        }

        static <T> Reply<T> silence() {
            return new Silence<>();
        }
    }

    /**
     * A call the rail received: its kind, its operation id (the payment's for pre-checks, authorizations,
     * captures and releases; the refund's; the payout's) and the operation as it came, for what else a test
     * wants to check (the order, the amount).
     */
    public record Received(Call<?> call, String operationId, Object operation, Money amount) {
    }

    private final Map<Call<?>, Deque<Reply<?>>> script = new HashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();

    /** The next call of this kind gets {@code reply}; several replies told for one kind are given in order. */
    public synchronized <T> StubRails next(Call<T> call, Reply<T> reply) {
        script.computeIfAbsent(call, any -> new ArrayDeque<>()).add(reply);
        return this;
    }

    /** The next call of this kind answers {@code outcome}. */
    public <T> StubRails answerNext(Call<T> call, T outcome) {
        return next(call, Reply.answer(outcome));
    }

    /** Every call received, in order. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** How many calls of this kind the rail received for this operation id. */
    public long count(Call<?> call, String operationId) {
        return received.stream().filter(r -> r.call() == call && r.operationId().equals(operationId)).count();
    }

    /** The kinds of call received for this operation id, in order. */
    public List<Call<?>> callsFor(String operationId) {
        return received.stream().filter(r -> r.operationId().equals(operationId)).<Call<?>>map(Received::call).toList();
    }

    // the outcomes a test tells the stub most often

    public static AuthorizationOutcome approved() {
        return new AuthorizationOutcome.Approved(TRANSACTION);
    }

    public static AuthorizationOutcome declined(ErrorCode code) {
        return new AuthorizationOutcome.Declined(ErrorDetails.of(code, "declined by the stub rail"));
    }

    /** 3-D Secure, or any page the payer must act on. */
    public static AuthorizationOutcome payerActionRequired() {
        return new AuthorizationOutcome.PayerActionRequired(new CustomerInteraction.Redirect(
                "https://acs.example/challenge?tx=1", "https://acs.example/challenge", "GET", Map.of("tx", "1"),
                Map.of()));
    }

    /** The rail itself says it cannot tell yet (its own time-out towards the issuer). */
    public static AuthorizationOutcome unknown() {
        return new AuthorizationOutcome.Unknown(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "the issuer did not answer"));
    }

    public static PrecheckResult refused(ErrorCode code) {
        return new PrecheckResult.Refused(ErrorDetails.of(code, "refused by the stub rail"));
    }

    @Override
    public boolean handles(PaymentMethod method) {
        return true;
    }

    @Override
    public CompletionStage<PrecheckResult> precheck(RailOperation operation) {
        return call(Call.PRECHECK, operation.paymentId().value(), operation, operation.order().amount(),
                new PrecheckResult.Passed());
    }

    @Override
    public CompletionStage<AuthorizationOutcome> authorize(RailOperation operation) {
        return call(Call.AUTHORIZE, operation.paymentId().value(), operation, operation.order().amount(),
                healthyAuthorization(operation));
    }

    @Override
    public CompletionStage<AuthorizationOutcome> queryOutcome(RailOperation operation) {
        return call(Call.QUERY_AUTHORIZATION, operation.paymentId().value(), operation, operation.order().amount(),
                healthyAuthorization(operation));
    }

    @Override
    public CompletionStage<CaptureOutcome> capture(RailOperation operation, Money amount) {
        return call(Call.CAPTURE, operation.paymentId().value(), operation, amount,
                new CaptureOutcome.Captured(TRANSACTION));
    }

    @Override
    public CompletionStage<CaptureOutcome> queryCapture(RailOperation operation, Money amount) {
        return call(Call.QUERY_CAPTURE, operation.paymentId().value(), operation, amount,
                new CaptureOutcome.Captured(TRANSACTION));
    }

    @Override
    public CompletionStage<Void> release(RailOperation operation) {
        return call(Call.RELEASE, operation.paymentId().value(), operation, operation.order().amount(), null);
    }

    @Override
    public CompletionStage<RefundOutcome> refund(RailOperation operation, RefundId refundId, Money amount) {
        return call(Call.REFUND, refundId.value(), operation, amount, new RefundOutcome.Accepted());
    }

    @Override
    public CompletionStage<RefundOutcome> queryRefund(RailOperation operation, RefundId refundId, Money amount) {
        return call(Call.QUERY_REFUND, refundId.value(), operation, amount, new RefundOutcome.Accepted());
    }

    @Override
    public CompletionStage<PrecheckResult> precheck(PayoutOperation operation) {
        return call(Call.PAYOUT_PRECHECK, operation.payoutId().value(), operation, operation.payout().amount(),
                new PrecheckResult.Passed());
    }

    @Override
    public CompletionStage<AuthorizationOutcome> send(PayoutOperation operation) {
        return call(Call.PAYOUT_SEND, operation.payoutId().value(), operation, operation.payout().amount(), approved());
    }

    @Override
    public CompletionStage<AuthorizationOutcome> queryOutcome(PayoutOperation operation) {
        return call(Call.QUERY_PAYOUT, operation.payoutId().value(), operation, operation.payout().amount(),
                approved());
    }

    private static AuthorizationOutcome healthyAuthorization(RailOperation operation) {
        return operation.order().holds() ? new AuthorizationOutcome.Held(TRANSACTION) : approved();
    }

    @SuppressWarnings("unchecked")
    private <T> CompletionStage<T> call(Call<T> call, String operationId, Object operation, Money amount,
                                        T healthy) {
        received.add(new Received(call, operationId, operation, amount));
        Reply<T> reply;
        synchronized (this) {
            Deque<Reply<?>> replies = script.get(call);
            reply = replies == null || replies.isEmpty() ? new Reply.Answer<>(healthy) : (Reply<T>) replies.poll();
        }
        if (reply instanceof Reply.Answer<T> answer) {
            return CompletableFuture.completedFuture(answer.outcome());
        }
        if (reply instanceof Reply.Throws<T> throwing) {
            throw throwing.exception();
        }
        if (reply instanceof Reply.Fails<T> failing) {
            return CompletableFuture.failedFuture(failing.cause());
        }
        if (reply instanceof Reply.Later<T> later) {
            return later.answer();
        }
        return new CompletableFuture<>();
    }
}
