package io.paysession.api.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checks a payment's own data makes before it can start, and what its data says to the rail. */
class PaymentDataTest {

    private static final CardMethod CARD = new CardMethod("card_0123", "visa", "424242", "4242");
    private static final Money AMOUNT = Money.of(10_000, "rub");
    private static final ObjectNode CUSTOMER = JsonNodeFactory.instance.objectNode().put("reference", "lucky");

    private static PaymentData data(PaymentMethod method, Money amount, ObjectNode options) {
        return new PaymentData(method, amount, CUSTOMER, options, null, null, null);
    }

    private static ObjectNode options() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Test
    void aCompletePaymentStarts() {
        assertThatCode(() -> data(CARD, AMOUNT, null).requireComplete()).doesNotThrowAnyException();
    }

    @Test
    void eachMissingRequiredFieldIsNamedInWireTerms() {
        assertThatThrownBy(() -> data(null, AMOUNT, null).requireComplete())
                .isInstanceOfSatisfying(PaymentsException.class, refusal -> {
                    assertThat(refusal.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                    assertThat(refusal.description()).isEqualTo("payment_details is required to start a payment");
                });
        assertThatThrownBy(() -> data(CARD, null, null).requireComplete())
                .hasMessage("amount_details is required to start a payment");
        assertThatThrownBy(() -> new PaymentData(CARD, AMOUNT, null, null, null, null, null).requireComplete())
                .hasMessage("customer is required to start a payment");
    }

    @Test
    void aBindingMustBeForOneMinorUnitAndAskForARecurrentToken() {
        PaymentMethod binding = new FasterPaymentBindingMethod();
        assertThatThrownBy(() -> data(binding, Money.of(2, "rub"), options().put("recurrent", true)).requireComplete())
                .isInstanceOfSatisfying(PaymentsException.class,
                        refusal -> assertThat(refusal.code()).isEqualTo(ErrorCode.INVALID_REQUEST))
                .hasMessage("amount_details.amount must be 1 for faster_payment_system_binding (it is not charged)");
        assertThatThrownBy(() -> data(binding, Money.of(1, "rub"), null).requireComplete())
                .isInstanceOfSatisfying(PaymentsException.class,
                        refusal -> assertThat(refusal.code()).isEqualTo(ErrorCode.INVALID_REQUEST))
                .hasMessage("payment_options.recurrent must be true for faster_payment_system_binding");
        assertThatCode(() -> data(binding, Money.of(1, "rub"), options().put("recurrent", "true")).requireComplete())
                .doesNotThrowAnyException();
    }

    @Test
    void theRailOrderCarriesTheMethodAmountCaptureModeAndAReturnUrlGivenAsText() {
        PartnerTerms delayed = new PartnerTerms(CaptureMode.DELAYED, FeeSchedule.NONE);
        assertThat(data(CARD, AMOUNT, options().put("return_url", "https://shop.example/back")).railOrder(delayed))
                .isEqualTo(new RailOrder(CARD, AMOUNT, CaptureMode.DELAYED, "https://shop.example/back"));
        assertThat(data(CARD, AMOUNT, options().put("return_url", 42)).returnUrl()).isEmpty();
        assertThat(data(CARD, AMOUNT, null).railOrder(delayed).returnUrl()).isNull();
    }

    @Test
    void aTokenIsGrantedOnlyWhenAskedForAndTheMethodSupportsIt() {
        assertThat(data(CARD, AMOUNT, options().put("recurrent", true)).grantsRecurrentToken()).isTrue();
        assertThat(data(CARD, AMOUNT, options().set("platform_details", options().put("recurrent", "true")))
                .grantsRecurrentToken()).isTrue();
        assertThat(data(CARD, AMOUNT, options().put("recurrent", false)).grantsRecurrentToken()).isFalse();
        assertThat(data(new QrAppMethod("79261234567", null), AMOUNT, options().put("recurrent", true)).grantsRecurrentToken()).isFalse();
    }
}
