package io.paysession.api.partner;

import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.session.TransactionInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a partner's terms decide about a paid payment: its fee and whether the payer's account token is shown. */
class PartnerTermsTest {

    private static final PartnerTerms TERMS = new PartnerTerms(CaptureMode.AUTO, new FeeSchedule(250, 30));

    @Test
    void aChargeCostsTheScheduledFeeAndNothingChargedCostsNothing() {
        assertThat(TERMS.feeFor(Money.of(10_000, "rub"))).isEqualTo(Money.of(280, "rub"));
        assertThat(TERMS.feeFor(Money.of(0, "rub"))).isEqualTo(Money.of(0, "rub"));
    }

    @Test
    void thePayersAccountTokenIsShownOnlyToPartnersForWhomItIsEnabled() {
        TransactionInfo info = new TransactionInfo(null, null, "A1", "bat_1");
        assertThat(info.shownUnder(TERMS)).isEqualTo(new TransactionInfo(null, null, "A1", null));
        assertThat(info.shownUnder(new PartnerTerms(CaptureMode.AUTO, FeeSchedule.NONE, true))).isEqualTo(info);
    }
}
