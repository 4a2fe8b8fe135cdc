package io.paysession.api.partner;

import io.paysession.api.money.FeeSchedule;

import java.util.Objects;

/** What the admin API sets for a partner. */
public record PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees) {

    public PartnerSettings {
        Objects.requireNonNull(publicKeyPem, "publicKeyPem");
        Objects.requireNonNull(webhookUrl, "webhookUrl");
        Objects.requireNonNull(captureMode, "captureMode");
        Objects.requireNonNull(fees, "fees");
    }

    public PartnerTerms terms() {
        return new PartnerTerms(captureMode, fees);
    }
}
