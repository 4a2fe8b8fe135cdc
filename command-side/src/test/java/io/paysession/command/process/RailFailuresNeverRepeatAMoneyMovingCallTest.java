package io.paysession.command.process;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordPayoutOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.rails.PaymentRails;
import io.paysession.command.rails.StubRails;
import io.paysession.command.rails.StubRails.Call;
import io.paysession.command.rails.StubRails.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's side of the rail contract, on the processes themselves with a rail that misbehaves: an answer
 * later than the answer time-out, an exception thrown at the call, a failed answer. Each money-moving call
 * (authorize, capture, refund, payout send) reaches the rail once per operation id; a missing answer is
 * recorded as unknown (never a reason to call again), and handling the same
 * event again (a crash before the answer was recorded, a retry, a redelivery) asks the rail's query instead
 * of calling again. End to end, with the journal in PostgreSQL and a killed JVM: RailFailuresEndToEndTest.
 */
class RailFailuresNeverRepeatAMoneyMovingCallTest {

    enum Failure {
        SLOW, THROWS, FAILS;

        <T> Reply<T> reply() {
            return switch (this) {
                case SLOW -> Reply.silence(); // the answer never comes in time
                case THROWS -> Reply.throwing();
                case FAILS -> Reply.failing();
            };
        }
    }

    private static final SessionId SESSION = SessionId.of("ps_1");
    private static final PaymentId PAYMENT = PaymentId.of("pm_7");
    private static final RefundId REFUND = RefundId.of("rf_3");
    private static final PayoutId PAYOUT = PayoutId.of("po_5");
    private static final Money AMOUNT = Money.of(10_000, "rub");
    private static final CardMethod CARD = new CardMethod("card_0123", "visa", "424242", "4242");
    private static final RailOrder ORDER = new RailOrder(CARD, AMOUNT, CaptureMode.DELAYED, null);
    private static final TransactionInfo INFO = StubRails.TRANSACTION;
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private final StubRails rail = new StubRails();
    private final RecordingCommands recorded = new RecordingCommands();
    private final RailCalls calls = recorded.railCalls(Duration.ofMillis(200));
    private final MoneyMovingCalls moneyCalls = new MoneyMovingCalls(new InMemoryRailCallJournal(), calls);
    private final EventDelivery events = new EventDelivery("shop",
            new PaymentProcess(new PaymentRails(List.of(rail)), recorded.sender(), calls, moneyCalls),
            new PayoutProcess(rail, calls, moneyCalls, new InMemoryWalletHolds(), recorded.sender(),
                    new TrackingTokenPositions()));

    @AfterEach
    void stop() {
        recorded.close();
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void anAuthorizationWithoutAnAnswerIsUnknownAndHandlingItAgainOnlyQueries(Failure failure) {
        rail.next(Call.AUTHORIZE, failure.reply());
        PaymentConfirmedEvent confirmed = new PaymentConfirmedEvent(SESSION, PAYMENT, ORDER, NOW);

        events.handle(confirmed);
        assertThat(recorded.sent()).singleElement().isInstanceOfSatisfying(RecordPaymentAuthorizationCommand.class, command ->
                assertThat(command.outcome()).isInstanceOfSatisfying(AuthorizationOutcome.Unknown.class, unknown ->
                        assertThat(unknown.reason().code()).isEqualTo(ErrorCode.PROVIDER_TIMEOUT)));

        events.handle(confirmed); // the processor handles the event again: after a crash, a retry, a redelivery
        assertThat(rail.count(Call.AUTHORIZE, PAYMENT.value())).isEqualTo(1);
        assertThat(rail.count(Call.QUERY_AUTHORIZATION, PAYMENT.value())).isEqualTo(1);
        assertThat(recorded.sent()).last().isEqualTo(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT,
                new AuthorizationOutcome.Held(INFO)));
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void aCaptureWithoutAnAnswerIsUnknownAndHandlingItAgainOnlyQueries(Failure failure) {
        rail.next(Call.CAPTURE, failure.reply());
        PaymentCaptureRequestedEvent capture = new PaymentCaptureRequestedEvent(SESSION, PAYMENT, ORDER, AMOUNT, NOW);

        events.handle(capture);
        assertThat(recorded.sent()).singleElement().isInstanceOf(RecordCaptureOutcomeUnknownCommand.class);

        events.handle(capture);
        assertThat(rail.count(Call.CAPTURE, PAYMENT.value())).isEqualTo(1);
        assertThat(rail.count(Call.QUERY_CAPTURE, PAYMENT.value())).isEqualTo(1);
        assertThat(recorded.sent()).last().isEqualTo(new RecordPaymentCaptureCommand(SESSION, PAYMENT, INFO));
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void aRefundWithoutAnAnswerIsUnknownAndHandlingItAgainOnlyQueries(Failure failure) {
        rail.next(Call.REFUND, failure.reply());
        RefundRequestedEvent refund = new RefundRequestedEvent(SESSION, PAYMENT, REFUND, ORDER, Money.of(300, "rub"),
                null, NOW);

        events.handle(refund);
        assertThat(recorded.sent()).singleElement().isInstanceOf(RecordRefundOutcomeUnknownCommand.class);

        events.handle(refund);
        assertThat(rail.count(Call.REFUND, REFUND.value())).isEqualTo(1);
        assertThat(rail.count(Call.QUERY_REFUND, REFUND.value())).isEqualTo(1);
        assertThat(recorded.sent()).last().isEqualTo(new RecordRefundOutcomeCommand(SESSION, REFUND, true, null));
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void aPayoutWithoutAnAnswerIsUnknownAndHandlingItAgainOnlyQueries(Failure failure) {
        rail.next(Call.PAYOUT_SEND, failure.reply());
        PayoutConfirmedEvent confirmed = new PayoutConfirmedEvent(SESSION, PAYOUT, payout(), NOW);

        events.handle(confirmed);
        assertThat(recorded.sent()).singleElement().isInstanceOfSatisfying(RecordPayoutOutcomeCommand.class, command ->
                assertThat(command.outcome()).isInstanceOf(AuthorizationOutcome.Unknown.class));

        events.handle(confirmed);
        assertThat(rail.count(Call.PAYOUT_SEND, PAYOUT.value())).isEqualTo(1);
        assertThat(rail.count(Call.QUERY_PAYOUT, PAYOUT.value())).isEqualTo(1);
        assertThat(recorded.sent()).last().isEqualTo(new RecordPayoutOutcomeCommand(SESSION, PAYOUT,
                new AuthorizationOutcome.Approved(INFO)));
    }

    @Test
    void aQueryWithoutAnAnswerIsUnknownAgainNotAnException() {
        rail.next(Call.QUERY_AUTHORIZATION, Failure.THROWS.reply());
        events.handle(new io.paysession.api.session.PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, ORDER, 1, NOW));
        assertThat(recorded.sent()).singleElement().isInstanceOfSatisfying(RecordPaymentAuthorizationCommand.class, command ->
                assertThat(command.outcome()).isInstanceOf(AuthorizationOutcome.Unknown.class));
        assertThat(rail.count(Call.AUTHORIZE, PAYMENT.value())).isZero();
    }

    @Test
    void anAnsweredCallIsRecordedAndTheSameEventHandledAgainIsAnsweredByTheQuery() {
        PaymentConfirmedEvent confirmed = new PaymentConfirmedEvent(SESSION, PAYMENT, ORDER, NOW);
        events.handle(confirmed);
        events.handle(confirmed); // the answer was recorded, the processor's position was not: a crash in between
        assertThat(rail.count(Call.AUTHORIZE, PAYMENT.value())).isEqualTo(1);
        assertThat(recorded.sent()).hasSize(2).containsOnly(new RecordPaymentAuthorizationCommand(SESSION, PAYMENT,
                new AuthorizationOutcome.Held(INFO)));
    }

    private static PayoutData payout() {
        return new PayoutData(new PayoutMethod.Card("tokenized_card", "card_9", "visa", "424242", "4242"), AMOUNT,
                null, null, null);
    }
}
