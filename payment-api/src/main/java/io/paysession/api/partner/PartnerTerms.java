package io.paysession.api.partner;

import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;

import java.util.Objects;

/** The parts of a partner's contract that shape an operation: capture mode and fee schedule. */
public record PartnerTerms(CaptureMode captureMode, FeeSchedule fees, boolean bankAccountToken) {

    public PartnerTerms {
        Objects.requireNonNull(captureMode, "captureMode");
        Objects.requireNonNull(fees, "fees");
    }

    public PartnerTerms(CaptureMode captureMode, FeeSchedule fees) {
        this(captureMode, fees, false);
    }

    /**
     * The merchant fee of a payment that charged {@code charged}: the fee schedule's, and nothing when nothing
     * was charged (a binding charges nothing and costs no fee).
     */
    public Money feeFor(Money charged) {
        return charged.minorUnits() == 0 ? new Money(0, charged.currency()) : fees.feeFor(charged);
    }
}
