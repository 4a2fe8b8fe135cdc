package io.paysession.api.partner;

import io.paysession.api.money.FeeSchedule;

import java.util.Objects;

/**
 * What the admin API sets for a partner. {@code bankAccountToken}: the service operator has enabled the
 * payer-account token ({@code bank_account_ru_token}) of instant payments for this partner.
 * {@code payoutFromBalance}: the partner's payouts are paid from its balance (the settled net of its payments,
 * refunds, chargebacks and payouts), and one larger than what is left of it fails with
 * {@code insufficient_wallet_balance}; off by default (the provider funds payouts otherwise, as today).
 */
public record PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees,
                              boolean bankAccountToken, boolean payoutFromBalance) {

    public PartnerSettings {
        Objects.requireNonNull(publicKeyPem, "publicKeyPem");
        Objects.requireNonNull(webhookUrl, "webhookUrl");
        Objects.requireNonNull(captureMode, "captureMode");
        Objects.requireNonNull(fees, "fees");
    }

    /** A partner without the payer-account token of instant payments (the default). */
    public PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees) {
        this(publicKeyPem, webhookUrl, captureMode, fees, false, false);
    }

    public PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees,
                           boolean bankAccountToken) {
        this(publicKeyPem, webhookUrl, captureMode, fees, bankAccountToken, false);
    }

    public PartnerTerms terms() {
        return new PartnerTerms(captureMode, fees, bankAccountToken);
    }
}
