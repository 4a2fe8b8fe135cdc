package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What counts as a card number in free text, and how a request holding one is refused. */
class FreeTextTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "4242424242424242",
            "pay with 4242 4242 4242 4242 please",
            "4242-4242-4242-4242",
            "4242  4242 - 4242 4242",
            "3793-545081-62306",
            "card:4242424242424242;exp 12/34",
            "4242 4242 4242 4242 12 34",
            "number 4242424242424242 cvc 123",
            "amex 379354508162306",
            "13 digits 4222222222222",
            "19 digits 6304000000000000018",
            "mir 2200 0000 0000 0004",
            "order 7, card 5019717010103742",
    })
    void aLuhnValidRunOf13To19DigitsIsACardNumber(String text) {
        assertThat(FreeText.holdsCardNumber(text)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "order 1234567812345678",
            "4242424242424241",
            "phone +7 926 123-45-67",
            "79261234567",
            "424242424242",
            "amount 10000 rub, 2026-11-25",
            "ogrn 1027700132195",
            "42424242424242424242",
            "4242    4242    4242    4242",
            "sizes 42 42 42 42 42 42 42 42",
            "1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6",
            "4242.4242.4242.4242",
            "",
            "order 42424242-4242-4242-a1b2-c3d4e5f6a7b8",
            "uuid 12345678-4242-4242-4242-424242424242",
            "req_ab4242424242424242cd",
            "sha 9f4242424242424242e0d1",
    })
    void otherDigitRunsAreNot(String text) {
        assertThat(FreeText.holdsCardNumber(text)).isFalse();
    }

    /**
     * The identifiers partners put in free text are never taken for card numbers: before digits touching letters
     * and groups of 8 and 12 stopped counting, about one UUID in a thousand was refused (seen in the suite).
     */
    @Test
    void identifiersPartnersUseAreNeverTakenForCardNumbers() {
        Random random = new Random(20261125L);
        byte[] bytes = new byte[16];
        for (int i = 0; i < 100_000; i++) {
            UUID uuid = new UUID(random.nextLong(), random.nextLong());
            random.nextBytes(bytes);
            String hex = HexFormat.of().formatHex(bytes);
            assertThat(FreeText.holdsCardNumber("order " + uuid)).as(uuid.toString()).isFalse();
            assertThat(FreeText.holdsCardNumber(hex)).as(hex).isFalse();
        }
        // and an all-digit UUID, the worst case: its groups of 8 and 12 join nothing
        assertThat(FreeText.holdsCardNumber("42424242-4242-4242-4242-424242424242")).isFalse();
    }

    @Test
    void aRefusalNamesTheFieldByItsPathAndNeverQuotesIt() {
        FreeText freeText = FreeText.at(List.of("metadata", "items", "customer"), Set.of("customer.contacts[].phone"));

        assertRefused(freeText, "{\"metadata\":{\"order\":{\"note\":\"card 4242424242424242\"}}}",
                "metadata.order.note must not hold a card number");
        assertRefused(freeText, "{\"metadata\":\"4242 4242 4242 4242\"}", "metadata must not hold a card number");
        assertRefused(freeText, "{\"items\":[{\"name\":\"mug\"},{\"name\":\"4242424242424242\"}]}",
                "items[1].name must not hold a card number");
        assertRefused(freeText, "{\"metadata\":{\"pan\":4242424242424242}}", "metadata.pan must not hold");
        assertRefused(freeText, "{\"metadata\":{\"pan\":4242424242424242.0}}", "metadata.pan must not hold");
        assertRefused(freeText, "{\"metadata\":{\"4242424242424242\":\"x\"}}",
                "metadata has a member whose name holds a card number");
        assertRefused(freeText, "{\"customer\":{\"reference\":\"4242424242424242\"}}",
                "customer.reference must not hold");
        assertRefused(freeText, "{\"customer\":{\"contacts\":[{\"email\":\"4242424242424242@mail.example\"}]}}",
                "customer.contacts[0].email must not hold");
    }

    @Test
    void structuredFieldsAndOtherPartsOfTheBodyAreNotRead() {
        FreeText freeText = FreeText.at(List.of("metadata", "customer"), Set.of("customer.contacts[].phone"));

        assertThatCode(() -> freeText.check(body("{\"customer\":{\"reference\":\"c-1\",\"contacts\":"
                + "[{\"phone\":\"4222222222222\"}]},\"metadata\":{\"order\":\"1234567812345678\",\"n\":1234567812345678},"
                + "\"payment_details\":{\"card\":{\"bank_card\":{\"number\":\"4242424242424242\"}}}}")))
                .doesNotThrowAnyException();
    }

    private static void assertRefused(FreeText freeText, String json, String message) {
        assertThatThrownBy(() -> freeText.check(body(json)))
                .isInstanceOfSatisfying(PaymentsException.class, refusal -> {
                    assertThat(refusal.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                    assertThat(refusal.getMessage()).contains(message).doesNotContain("4242");
                });
    }

    private static ObjectNode body(String json) {
        return JsonBodies.readObject(json.getBytes(StandardCharsets.UTF_8));
    }
}
