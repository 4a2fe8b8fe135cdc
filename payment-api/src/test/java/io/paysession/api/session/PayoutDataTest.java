package io.paysession.api.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checks a payout's own data makes before it can start. */
class PayoutDataTest {

    private static final PayoutMethod.Card MIR = new PayoutMethod.Card("bank_card", "card_77", "mir", "220000", "0004");

    private static ObjectNode recipient(String field, String value) {
        ObjectNode details = JsonNodeFactory.instance.objectNode();
        details.putObject("recipient").put(field, value);
        return details;
    }

    @Test
    void aCardPayoutWithTheRecipientsNameStarts() {
        assertThatCode(() -> new PayoutData(MIR, Money.of(150_000, "rub"), null, recipient("full_name", "Иван Иванов"),
                null).requireComplete()).doesNotThrowAnyException();
    }

    @Test
    void whatIsMissingIsRefusedAsAnInvalidRequestSayingWhat() {
        assertThatThrownBy(() -> PayoutData.EMPTY.requireComplete())
                .isInstanceOfSatisfying(PaymentsException.class,
                        refusal -> assertThat(refusal.code()).isEqualTo(ErrorCode.INVALID_REQUEST))
                .hasMessage("payment_method (payout_details in API v2) is required to start a payout");
        assertThatThrownBy(() -> new PayoutData(MIR, Money.of(150_000, "rub"), null, recipient("full_name", " "), null)
                .requireComplete())
                .hasMessage("participant_details.recipient.full_name is required for card payouts");
        assertThatThrownBy(() -> new PayoutData(MIR, Money.of(150_000, "eur"), null, recipient("full_name", "Ivan"), null)
                .requireComplete())
                .hasMessage("amount_details.currency must be rub for payouts to Russian cards");
    }

    @Test
    void aRecipientVerificationNeedsNoAmountButTheRecipientsNames() {
        PayoutMethod verification = new PayoutMethod.FasterPaymentVerification("79261234567", "100000000069");
        ObjectNode names = recipient("first_name", "Ivan");
        ((ObjectNode) names.path("recipient")).put("last_name", "Ivanov");
        assertThatCode(() -> new PayoutData(verification, null, null, names, null).requireComplete())
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> new PayoutData(verification, null, null, recipient("first_name", "Ivan"), null)
                .requireComplete())
                .hasMessage("participant_details.recipient.first_name and last_name are required for this payout");
    }
}
