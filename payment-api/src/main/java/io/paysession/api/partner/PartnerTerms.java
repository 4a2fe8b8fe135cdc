package io.paysession.api.partner;

import io.paysession.api.money.FeeSchedule;

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
}
