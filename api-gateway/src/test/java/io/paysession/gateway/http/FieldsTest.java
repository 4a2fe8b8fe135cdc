package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldsTest {

    private static ObjectNode body(String json) {
        return JsonBodies.readObject(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void amountsAreIntegersOrDigitStringsAndCurrenciesAnyCase() {
        assertThat(Fields.amountDetails(body("{\"m\":{\"amount\":10000,\"currency\":\"RUB\"}}"), "m", ""))
                .contains(Money.of(10000, "rub"));
        assertThat(Fields.amountDetails(body("{\"m\":{\"amount\":\"10000\",\"currency\":\"eur\"}}"), "m", ""))
                .contains(Money.of(10000, "EUR"));
        assertThat(Fields.amountDetails(body("{\"m\":[]}"), "x", "")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"100.50\"", "0", "-1", "1e3", "100.0", "\"\"", "\" 100\"", "true",
            "10000000000000000001", "\"99999999999999999999\""})
    void everyOtherAmountIsRefusedNamingTheField(String amount) {
        ObjectNode request = body("{\"amount_details\":{\"amount\":" + amount + ",\"currency\":\"rub\"}}");
        assertThatThrownBy(() -> Fields.amountDetails(request, "amount_details", ""))
                .isInstanceOf(PaymentsException.class)
                .hasMessageStartingWith("amount_details.amount");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"RU\"", "\"RUBL\"", "\"XQZ\"", "42", "\"ру6\""})
    void unknownCurrenciesAreRefused(String currency) {
        ObjectNode request = body("{\"amount_details\":{\"amount\":1,\"currency\":" + currency + "}}");
        assertThatThrownBy(() -> Fields.amountDetails(request, "amount_details", ""))
                .isInstanceOf(PaymentsException.class)
                .hasMessageStartingWith("amount_details.currency");
    }

    @Test
    void objectsAcceptTheEmptyArrayOfPhpSdks() throws Exception {
        ObjectNode request = (ObjectNode) new ObjectMapper().readTree("{\"ewallet\":[],\"other\":[1]}");
        assertThat(Fields.object(request, "ewallet", "payment_details")).hasValueSatisfying(node ->
                assertThat(node).isEmpty());
        assertThatThrownBy(() -> Fields.object(request, "other", "payment_details"))
                .hasMessage("payment_details.other must be an object");
    }
}
