package io.paysession.api.partner;

import io.paysession.api.money.FeeSchedule;

import java.util.Objects;

/**
 * What the admin API sets for a partner. {@code bankAccountToken}: the service operator has enabled the
 * payer-account token ({@code bank_account_ru_token}) of instant payments for this partner.
 */
public record PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees,
                              boolean bankAccountToken) {

    public PartnerSettings {
        Objects.requireNonNull(publicKeyPem, "publicKeyPem");
        Objects.requireNonNull(webhookUrl, "webhookUrl");
        Objects.requireNonNull(captureMode, "captureMode");
        Objects.requireNonNull(fees, "fees");
    }

    /** A partner without the payer-account token of instant payments (the default). */
    public PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees) {
        this(publicKeyPem, webhookUrl, captureMode, fees, false);
    }

    public PartnerTerms terms() {
        return new PartnerTerms(captureMode, fees, bankAccountToken);
    }
}
