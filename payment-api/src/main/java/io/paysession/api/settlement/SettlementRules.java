package io.paysession.api.settlement;

import io.paysession.api.money.Money;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.PaymentView;
import io.paysession.api.session.view.PayoutView;
import io.paysession.api.session.view.RefundView;
import io.paysession.api.session.view.SessionView;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The settlement rules (issue 10): only succeeded operations count; a payment captured later counts as a
 * capture of the captured amount on the capture's day; a refund takes its amount off on the day it is
 * accepted, and so does a chargeback (the day the acquirer withheld it), as an operation of its own; a payout
 * takes its amount off; the binding of an instant-payment account (1 unit, not charged) and recipient
 * verifications count for nothing; failed and cancelled operations are listed apart with
 * their error codes. Entries are named after the event that settled them, so deriving twice gives the
 * same entries.
 */
public final class SettlementRules {

    public record Derived(List<SettlementEntry> entries, List<FailedOperation> failures) {
        static final Derived NONE = new Derived(List.of(), List.of());
    }

    private SettlementRules() {
    }

    /**
     * What {@code event} settles, given the session just {@code before} it and just {@code after} it;
     * {@code eventId} and {@code globalIndex} are the event's identity and position in the store.
     */
    public static Derived derive(SessionEvent event, SessionView before, SessionView after, String eventId,
                                 long globalIndex) {
        LocalDate day = event.occurredAt().atZone(ZoneOffset.UTC).toLocalDate();
        String project = after.project();
        String session = after.id();
        if (event instanceof PaymentSucceededEvent succeeded) {
            PaymentView payment = after.payment(succeeded.paymentId().value()).orElseThrow();
            PaymentMethod method = payment.data().method();
            if (!method.charges()) {
                return Derived.NONE;
            }
            Money gross = succeeded.capturedAmount();
            long fee = succeeded.merchantFee() == null ? 0 : succeeded.merchantFee().minorUnits();
            SettlementEntry.Operation operation = after.capturedAt() != null
                    ? SettlementEntry.Operation.CAPTURE : SettlementEntry.Operation.PAYMENT;
            return entry(SettlementEntry.of(eventId, project, day, methodName(method), operation, session,
                    payment.id(), gross, fee, gross.minorUnits() - fee, globalIndex));
        }
        if (event instanceof RefundAcceptedEvent accepted) {
            PaymentView payment = after.payment(accepted.paymentId().value()).orElseThrow();
            RefundView refund = payment.refunds().stream()
                    .filter(candidate -> candidate.id().equals(accepted.refundId().value())).findFirst().orElseThrow();
            return entry(SettlementEntry.of(eventId, project, day, methodName(payment.data().method()),
                    refund.chargeback() ? SettlementEntry.Operation.CHARGEBACK : SettlementEntry.Operation.REFUND,
                    session, refund.id(), refund.amount(), 0, -refund.amount().minorUnits(), globalIndex));
        }
        if (event instanceof PayoutSucceededEvent succeeded) {
            PayoutView payout = after.payout(succeeded.payoutId().value()).orElseThrow();
            if (payout.data().amount() == null) {
                return Derived.NONE;
            }
            Money gross = payout.data().amount();
            return entry(SettlementEntry.of(eventId, project, day, payoutMethodName(payout.data().method()),
                    SettlementEntry.Operation.PAYOUT, session, payout.id(), gross, 0, -gross.minorUnits(),
                    globalIndex));
        }
        if (event instanceof PaymentFailedEvent failed) {
            PaymentView payment = after.payment(failed.paymentId().value()).orElseThrow();
            return failure(new FailedOperation(eventId, project, day, methodName(payment.data().method()), "payment",
                    session, payment.id(), payment.data().amount().currencyCode(), payment.data().amount().minorUnits(),
                    failed.error().code().code(), globalIndex));
        }
        if (event instanceof PayoutFailedEvent failed) {
            PayoutView payout = after.payout(failed.payoutId().value()).orElseThrow();
            return failure(payoutFailure(eventId, project, day, session, payout, failed.error().code().code(),
                    globalIndex));
        }
        if (event instanceof RefundDeclinedEvent declined) {
            PaymentView payment = after.payment(declined.paymentId().value()).orElseThrow();
            RefundView refund = payment.refunds().stream()
                    .filter(candidate -> candidate.id().equals(declined.refundId().value())).findFirst().orElseThrow();
            return failure(new FailedOperation(eventId, project, day, methodName(payment.data().method()), "refund",
                    session, refund.id(), refund.amount().currencyCode(), refund.amount().minorUnits(),
                    declined.reason().code().code(), globalIndex));
        }
        if (event instanceof SessionCancelledEvent cancelled && before != null) {
            List<FailedOperation> failures = new ArrayList<>();
            for (PaymentView payment : before.payments()) {
                if (!payment.state().isFinal()) {
                    failures.add(new FailedOperation(eventId + ":" + payment.id(), project, day,
                            methodName(payment.data().method()), "payment", session, payment.id(),
                            payment.data().amount().currencyCode(), payment.data().amount().minorUnits(),
                            cancelled.error().code().code(), globalIndex));
                }
            }
            for (PayoutView payout : before.payouts()) {
                if (!payout.state().isFinal()) {
                    failures.add(payoutFailure(eventId + ":" + payout.id(), project, day, session, payout,
                            cancelled.error().code().code(), globalIndex));
                }
            }
            return new Derived(List.of(), failures);
        }
        return Derived.NONE;
    }

    private static FailedOperation payoutFailure(String entryId, String project, LocalDate day, String session,
                                                 PayoutView payout, String code, long globalIndex) {
        Money amount = payout.data().amount();
        return new FailedOperation(entryId, project, day, payoutMethodName(payout.data().method()), "payout", session,
                payout.id(), amount == null ? null : amount.currencyCode(), amount == null ? null : amount.minorUnits(),
                code, globalIndex);
    }

    /** The method as reports name it: the money's rail (a charge with a token counts under its original method). */
    public static String methodName(PaymentMethod method) {
        if (method instanceof RecurrentMethod recurrent) {
            return methodName(recurrent.source());
        }
        if (method instanceof BankAppMethod) {
            return "bank_app_pay";
        }
        if (method instanceof QrAppMethod) {
            return "qr_app_pay";
        }
        return method.wireType();
    }

    public static String payoutMethodName(PayoutMethod method) {
        if (method instanceof PayoutMethod.Card) {
            return "card";
        }
        if (method instanceof PayoutMethod.Iban) {
            return "bank_account";
        }
        if (method instanceof PayoutMethod.FasterPaymentVerification) {
            return "faster_payment_system_verification";
        }
        return "faster_payment_system";
    }

    private static Derived entry(SettlementEntry entry) {
        return new Derived(List.of(entry), List.of());
    }

    private static Derived failure(FailedOperation failure) {
        return new Derived(List.of(), List.of(failure));
    }
}
