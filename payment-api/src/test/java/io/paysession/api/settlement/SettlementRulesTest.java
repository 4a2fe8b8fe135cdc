package io.paysession.api.settlement;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.FasterPaymentBindingMethod;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.ChargebackOpenedEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionViewFold;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static io.paysession.api.session.SessionFixtures.AMOUNT;
import static io.paysession.api.session.SessionFixtures.FEE;
import static io.paysession.api.session.SessionFixtures.PAYMENT;
import static io.paysession.api.session.SessionFixtures.PROJECT;
import static io.paysession.api.session.SessionFixtures.SESSION;
import static io.paysession.api.session.SessionFixtures.TERMS;
import static io.paysession.api.session.SessionFixtures.TRANSACTION;
import static io.paysession.api.session.SessionFixtures.VISA;
import static io.paysession.api.session.SessionFixtures.at;
import static io.paysession.api.session.SessionFixtures.cardPayment;
import static io.paysession.api.session.SessionFixtures.created;
import static io.paysession.api.session.SessionFixtures.declinedPayment;
import static io.paysession.api.session.SessionFixtures.json;
import static io.paysession.api.session.SessionFixtures.successfulPayment;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The settlement rules as plain input and output: a session's events in, the entries and failures of its last
 * event out, with no store and no Spring (the reconciliation end-to-end tests prove the same rules through the
 * projection and the audit's verification).
 */
class SettlementRulesTest {

    private static final int DAY = 24 * 60 * 60;
    private static final LocalDate FIRST_DAY = LocalDate.of(2026, 11, 22);
    private static final RefundId REFUND = RefundId.of("rf_9");
    private static final RailOrder ORDER = new RailOrder(VISA, AMOUNT, CaptureMode.AUTO, null);

    @Test
    void aPaidPaymentSettlesItsAmountLessItsFeeOnItsDay() {
        SettlementRules.Derived derived = deriveLast(successfulPayment(ApiVersion.V1), 4);

        assertThat(derived.failures()).isEmpty();
        assertThat(derived.entries()).singleElement().satisfies(entry -> {
            assertThat(entry.operation()).isEqualTo(SettlementEntry.Operation.PAYMENT);
            assertThat(entry.project()).isEqualTo(PROJECT);
            assertThat(entry.day()).isEqualTo(FIRST_DAY);
            assertThat(entry.currency()).isEqualTo("eur");
            assertThat(entry.method()).isEqualTo("card");
            assertThat(entry.sessionId()).isEqualTo(SESSION.value());
            assertThat(entry.operationId()).isEqualTo(PAYMENT.value());
            assertThat(entry.gross()).isEqualTo(10_000);
            assertThat(entry.fee()).isEqualTo(280);
            assertThat(entry.net()).isEqualTo(9_720);
            assertThat(entry.entryId()).isEqualTo("event-4");
            assertThat(entry.globalIndex()).isEqualTo(104);
        });
    }

    @Test
    void derivingTheSameEventTwiceGivesTheSameEntries() {
        List<SessionEvent> events = successfulPayment(ApiVersion.V2);
        assertThat(deriveLast(events, 4)).isEqualTo(deriveLast(events, 4));
    }

    @Test
    void aDelayedCaptureSettlesTheCapturedAmountOnTheCapturesDay() {
        Money captured = Money.of(6_000, "EUR");
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1).subList(0, 4));
        events.add(new PaymentAuthorizedEvent(SESSION, PAYMENT, TRANSACTION, at(4)));
        events.add(new PaymentCaptureRequestedEvent(SESSION, PAYMENT, ORDER, captured, at(DAY + 5)));
        events.add(new PaymentSucceededEvent(SESSION, PAYMENT, TRANSACTION, captured, Money.of(180, "EUR"),
                at(DAY + 6)));

        SettlementRules.Derived derived = deriveLast(events, 6);

        assertThat(derived.entries()).singleElement().satisfies(entry -> {
            assertThat(entry.operation()).isEqualTo(SettlementEntry.Operation.CAPTURE);
            assertThat(entry.day()).isEqualTo(FIRST_DAY.plusDays(1));
            assertThat(entry.gross()).isEqualTo(6_000);
            assertThat(entry.fee()).isEqualTo(180);
            assertThat(entry.net()).isEqualTo(5_820);
        });
        assertThat(deriveLast(events.subList(0, 5), 4)).as("the hold itself settles nothing")
                .isEqualTo(new SettlementRules.Derived(List.of(), List.of()));
    }

    @Test
    void anAcceptedRefundTakesItsAmountOffOnTheDayItIsAccepted() {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1));
        events.add(new RefundRequestedEvent(SESSION, PAYMENT, REFUND, ORDER, Money.of(2_500, "EUR"), null,
                at(2 * DAY)));
        events.add(new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, at(3 * DAY)));

        SettlementRules.Derived derived = deriveLast(events, 6);

        assertThat(derived.entries()).singleElement().satisfies(entry -> {
            assertThat(entry.operation()).isEqualTo(SettlementEntry.Operation.REFUND);
            assertThat(entry.day()).isEqualTo(FIRST_DAY.plusDays(3));
            assertThat(entry.operationId()).isEqualTo(REFUND.value());
            assertThat(entry.gross()).isEqualTo(2_500);
            assertThat(entry.fee()).isZero();
            assertThat(entry.net()).isEqualTo(-2_500);
        });
        assertThat(deriveLast(events.subList(0, 6), 5).entries()).as("a refund in progress settles nothing").isEmpty();
    }

    @Test
    void aWithheldChargebackTakesItsAmountOffAsAChargebackOnTheDayItIsWithheld() {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1));
        events.add(new ChargebackOpenedEvent(SESSION, PAYMENT, REFUND, Money.of(10_000, "EUR"), "fraud", at(2 * DAY)));
        events.add(new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, at(4 * DAY)));

        SettlementRules.Derived derived = deriveLast(events, 6);

        assertThat(derived.entries()).singleElement().satisfies(entry -> {
            assertThat(entry.operation()).isEqualTo(SettlementEntry.Operation.CHARGEBACK);
            assertThat(entry.operation().wireName()).isEqualTo("chargeback");
            assertThat(entry.day()).isEqualTo(FIRST_DAY.plusDays(4));
            assertThat(entry.operationId()).isEqualTo(REFUND.value());
            assertThat(entry.gross()).isEqualTo(10_000);
            assertThat(entry.net()).isEqualTo(-10_000);
        });
        assertThat(deriveLast(events.subList(0, 6), 5).entries()).as("a chargeback in progress settles nothing")
                .isEmpty();
    }

    @Test
    void aDeclinedRefundIsListedApartWithItsCode() {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1));
        events.add(new RefundRequestedEvent(SESSION, PAYMENT, REFUND, ORDER, Money.of(2_500, "EUR"), null, at(5)));
        events.add(new RefundDeclinedEvent(SESSION, PAYMENT, REFUND,
                ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"), at(6)));

        SettlementRules.Derived derived = deriveLast(events, 6);

        assertThat(derived.entries()).isEmpty();
        assertThat(derived.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.operation()).isEqualTo("refund");
            assertThat(failure.operationId()).isEqualTo(REFUND.value());
            assertThat(failure.amount()).isEqualTo(2_500);
            assertThat(failure.errorCode()).isEqualTo("declined_by_issuer_bank");
        });
    }

    @Test
    void aFailedPaymentIsListedApartAndSettlesNothing() {
        SettlementRules.Derived derived = deriveLast(declinedPayment(ApiVersion.V1), 4);

        assertThat(derived.entries()).isEmpty();
        assertThat(derived.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.operation()).isEqualTo("payment");
            assertThat(failure.method()).isEqualTo("card");
            assertThat(failure.amount()).isEqualTo(10_000);
            assertThat(failure.errorCode()).isEqualTo("declined_by_issuer_bank");
        });
    }

    @Test
    void aSessionCancelledWhileItsPaymentWaitedListsThatPaymentWithTheCancellationsCode() {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1).subList(0, 3));
        events.add(new SessionCancelledEvent(SESSION,
                ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "The partner did not confirm in time"), at(3)));

        SettlementRules.Derived derived = deriveLast(events, 3);

        assertThat(derived.entries()).isEmpty();
        assertThat(derived.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.entryId()).isEqualTo("event-3:" + PAYMENT.value());
            assertThat(failure.errorCode()).isEqualTo("confirm_timeout");
        });
    }

    @Test
    void aBindingChargesNothingAndSettlesNothing() {
        PaymentData binding = new PaymentData(new FasterPaymentBindingMethod(), Money.of(1, "RUB"),
                json("{\"reference\":\"lucky\"}"), json("{\"recurrent\":true}"), null, null, null);
        List<SessionEvent> events = List.of(created(ApiVersion.V1),
                new PaymentStartedEvent(SESSION, PAYMENT, binding, TERMS, at(1)),
                new PaymentReadyToConfirmEvent(SESSION, PAYMENT, at(2)),
                new PaymentConfirmedEvent(SESSION, PAYMENT,
                        new RailOrder(binding.method(), binding.amount(), CaptureMode.AUTO, null), at(3)),
                new PaymentSucceededEvent(SESSION, PAYMENT, null, Money.of(0, "RUB"), Money.of(0, "RUB"), at(4)));

        assertThat(deriveLast(events, 4)).isEqualTo(new SettlementRules.Derived(List.of(), List.of()));
    }

    @Test
    void aChargeWithARecurrentTokenCountsUnderItsOriginalMethod() {
        RecurrentMethod token = new RecurrentMethod("rt_0123456789abcdef0123456789abcdef",
                RecurrentMethod.Initiator.MERCHANT, VISA);
        PaymentData charge = new PaymentData(token, AMOUNT, cardPayment(null).customer(), null, null, null, null);
        List<SessionEvent> events = List.of(created(ApiVersion.V1),
                new PaymentStartedEvent(SESSION, PAYMENT, charge, TERMS, at(1)),
                new PaymentReadyToConfirmEvent(SESSION, PAYMENT, at(2)),
                new PaymentConfirmedEvent(SESSION, PAYMENT, new RailOrder(token, AMOUNT, CaptureMode.AUTO, null), at(3)),
                new PaymentSucceededEvent(SESSION, PAYMENT, TRANSACTION, AMOUNT, FEE, at(4)));

        assertThat(deriveLast(events, 4).entries()).singleElement()
                .satisfies(entry -> assertThat(entry.method()).isEqualTo("card"));
        assertThat(SettlementRules.methodName(token)).isEqualTo("card");
    }

    @Test
    void eventsThatSettleNothingDeriveNothing() {
        List<SessionEvent> events = successfulPayment(ApiVersion.V1);
        for (int i = 0; i < 4; i++) {
            assertThat(deriveLast(events.subList(0, i + 1), i)).as(events.get(i).getClass().getSimpleName())
                    .isEqualTo(new SettlementRules.Derived(List.of(), List.of()));
        }
    }

    /** What the last of {@code events} (sequence number {@code sequence}) settles; its id and position follow it. */
    private static SettlementRules.Derived deriveLast(List<SessionEvent> events, long sequence) {
        SessionEvent last = events.get(events.size() - 1);
        return SettlementRules.derive(last, SessionViewFold.fold(events.subList(0, events.size() - 1)),
                SessionViewFold.fold(events), "event-" + sequence, 100 + sequence);
    }
}
