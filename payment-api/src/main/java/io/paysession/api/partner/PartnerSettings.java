package io.paysession.api.partner;

import io.paysession.api.money.FeeSchedule;

import java.util.List;
import java.util.Objects;

/**
 * What the admin API sets for a partner. {@code bankAccountToken}: the service operator has enabled the
 * payer-account token ({@code bank_account_ru_token}) of instant payments for this partner.
 * {@code payoutFromBalance}: the partner's payouts are paid from its balance (the settled net of its payments,
 * refunds, chargebacks and payouts), and one larger than what is left of it fails with
 * {@code insufficient_wallet_balance}; off by default (the provider funds payouts otherwise, as today).
 * {@code secondPublicKeyPem}: a second key the partner's requests verify under, while it rotates its key (absent
 * in events of earlier versions, so null).
 */
public record PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees,
                              boolean bankAccountToken, boolean payoutFromBalance, String secondPublicKeyPem) {

    /** A partner has at most this many keys at once: the one it signs with and the one it moves to. */
    public static final int MAX_PUBLIC_KEYS = 2;

    public PartnerSettings {
        Objects.requireNonNull(publicKeyPem, "publicKeyPem");
        Objects.requireNonNull(webhookUrl, "webhookUrl");
        Objects.requireNonNull(captureMode, "captureMode");
        Objects.requireNonNull(fees, "fees");
        if (publicKeyPem.equals(secondPublicKeyPem)) {
            secondPublicKeyPem = null;
        }
    }

    /** A partner with one key. */
    public PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees,
                           boolean bankAccountToken, boolean payoutFromBalance) {
        this(publicKeyPem, webhookUrl, captureMode, fees, bankAccountToken, payoutFromBalance, null);
    }

    /** A partner without the payer-account token of instant payments (the default). */
    public PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees) {
        this(publicKeyPem, webhookUrl, captureMode, fees, false, false);
    }

    public PartnerSettings(String publicKeyPem, String webhookUrl, CaptureMode captureMode, FeeSchedule fees,
                           boolean bankAccountToken) {
        this(publicKeyPem, webhookUrl, captureMode, fees, bankAccountToken, false);
    }

    /** The keys requests verify under: the first registered first. */
    public List<String> publicKeys() {
        return secondPublicKeyPem == null ? List.of(publicKeyPem) : List.of(publicKeyPem, secondPublicKeyPem);
    }

    /** These settings with {@code keys} (one or two, the first registered first) in place of the partner's keys. */
    public PartnerSettings withPublicKeys(List<String> keys) {
        if (keys.isEmpty() || keys.size() > MAX_PUBLIC_KEYS) {
            throw new IllegalArgumentException("a partner has one or two public keys");
        }
        return new PartnerSettings(keys.get(0), webhookUrl, captureMode, fees, bankAccountToken, payoutFromBalance,
                keys.size() > 1 ? keys.get(1) : null);
    }

    public PartnerTerms terms() {
        return new PartnerTerms(captureMode, fees, bankAccountToken);
    }
}
