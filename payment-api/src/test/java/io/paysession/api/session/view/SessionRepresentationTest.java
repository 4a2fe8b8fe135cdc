package io.paysession.api.session.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import static io.paysession.api.session.SessionFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

class SessionRepresentationTest {

    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z";

    private static ObjectNode render(List<SessionEvent> events) {
        return SessionRepresentation.render(SessionViewFold.fold(events));
    }

    private static List<SessionEvent> cancelledWhileWaiting(ApiVersion version) {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(version).subList(0, 3));
        events.add(new SessionCancelledEvent(SESSION, ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "Not confirmed in time"), at(1200)));
        return events;
    }

    /** Every stage of every story, in both versions: what responses and webhooks can carry. */
    private static List<ObjectNode> everyRendering() {
        List<ObjectNode> all = new ArrayList<>();
        for (ApiVersion version : ApiVersion.values()) {
            for (List<SessionEvent> story : List.of(successfulPayment(version), declinedPayment(version), cancelledWhileWaiting(version))) {
                for (int length = 1; length <= story.size(); length++) {
                    all.add(render(story.subList(0, length)));
                }
            }
        }
        return all;
    }

    private static void walk(String path, JsonNode node, BiConsumer<String, JsonNode> visitor) {
        visitor.accept(path, node);
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> walk(path + "/" + field.getKey(), field.getValue(), visitor));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(path + "/" + i, node.get(i), visitor);
            }
        }
    }

    @Test
    void v1NamesThePaymentListAcquiringPaymentsAndV2PaymentList() {
        SessionView view = SessionViewFold.fold(successfulPayment(ApiVersion.V1));

        assertThat(SessionRepresentation.render(view, ApiVersion.V1).fieldNames()).toIterable()
                .contains("acquiring_payments").doesNotContain("payment_list");
        assertThat(SessionRepresentation.render(view, ApiVersion.V2).fieldNames()).toIterable()
                .contains("payment_list").doesNotContain("acquiring_payments");
        assertThat(render(successfulPayment(ApiVersion.V2)).get("payment_list")).hasSize(1);
        assertThat(render(successfulPayment(ApiVersion.V1)).get("acquiring_payments")).hasSize(1);
    }

    @Test
    void noRenderingCarriesNullAnywhere() {
        assertThat(everyRendering()).hasSize(28).allSatisfy(session -> walk("", session, (path, node) ->
                assertThat(node.isNull()).as("null at %s in %s", path, session).isFalse()));
    }

    @Test
    void everyTimestampHasSixFractionDigitsAndZ() {
        assertThat(everyRendering()).allSatisfy(session -> walk("", session, (path, node) -> {
            if (path.endsWith("_at") || path.startsWith("/actions/")) {
                assertThat(node.textValue()).as(path).matches(TIMESTAMP);
            }
        }));
        List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1));
        events.set(0, new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, null, null, Instant.parse("2026-11-22T10:15:30Z")));
        ObjectNode session = render(events);
        assertThat(session.get("created_at").textValue()).isEqualTo("2026-11-22T10:15:30.000000Z");
        assertThat(session.get("updated_at").textValue()).isEqualTo("2026-11-22T10:15:34.123456Z");
        assertThat(session.at("/actions/confirm").textValue()).isEqualTo("2026-11-22T10:15:33.123456Z");
        assertThat(session.at("/acquiring_payments/0/finished_at").textValue()).isEqualTo("2026-11-22T10:15:34.123456Z");
    }

    @Test
    void createdSessionRendersWithoutPaymentListNextActionOrActions() {
        ObjectNode session = render(List.of(created(ApiVersion.V1)));

        assertThat(session).isEqualTo(json("{\"id\":\"ps_1\",\"status\":\"created\","
                + "\"created_at\":\"2026-11-22T10:15:30.123456Z\",\"updated_at\":\"2026-11-22T10:15:30.123456Z\"}"));
    }

    @Test
    void nextActionIsPresentOnlyWhileTheServiceWaitsForConfirmation() {
        List<SessionEvent> story = successfulPayment(ApiVersion.V1);

        assertThat(render(story.subList(0, 2)).has("next_action")).isFalse();
        ObjectNode waiting = render(story.subList(0, 3));
        assertThat(waiting.get("next_action").textValue()).isEqualTo("confirm");
        assertThat(waiting.get("status").textValue()).isEqualTo("in_progress");
        assertThat(waiting.at("/acquiring_payments/0/status").textValue()).isEqualTo("pending");
        assertThat(waiting.has("actions")).isFalse();
        ObjectNode confirmed = render(story.subList(0, 4));
        assertThat(confirmed.has("next_action")).isFalse();
        assertThat(confirmed.get("actions")).isEqualTo(json("{\"confirm\":\"2026-11-22T10:15:33.123456Z\"}"));
        assertThat(render(cancelledWhileWaiting(ApiVersion.V1)).has("next_action")).isFalse();
    }

    @Test
    void succeededPaymentShowsAmountsFeeTransactionInfoAndOnlyTheCardsPublicPart() {
        ObjectNode session = render(successfulPayment(ApiVersion.V1));
        JsonNode payment = session.at("/acquiring_payments/0");

        assertThat(session.get("status").textValue()).isEqualTo("accepted");
        assertThat(session.has("error")).isFalse();
        assertThat(payment.get("status").textValue()).isEqualTo("succeeded");
        assertThat(payment.get("payment_details"))
                .isEqualTo(json("{\"type\":\"card\",\"card\":{\"brand\":\"visa\",\"bin\":\"424242\",\"last4\":\"4242\"}}"));
        assertThat(session.toString()).doesNotContain(VISA.vaultToken());
        assertThat(payment.get("amount_details")).hasToString("{\"amount\":10000,\"currency\":\"eur\"}");
        assertThat(payment.get("amounts")).hasToString(json("{\"gross\":{\"amount\":10000,\"currency\":\"eur\"},"
                + "\"net\":{\"amount\":9720,\"currency\":\"eur\"},\"fee\":{\"merchant_fee\":{\"amount\":280,\"currency\":\"eur\"}}}").toString());
        assertThat(payment.get("transaction_info")).isEqualTo(json("{\"rrn\":\"123456789012\",\"auth_code\":\"A1B2C3\"}"));
        assertThat(payment.get("customer"))
                .isEqualTo(json("{\"reference\":\"lucky\",\"contacts\":[{\"email\":\"lucky@example.com\"}]}"));
        assertThat(payment.has("error")).isFalse();
    }

    /** A fixed fee on a small payment, and a fee stored before the admin API bounded fees: rendered, never a failure. */
    @Test
    void aFeeLargerThanThePaymentGivesANegativeNet() {
        for (long fee : new long[]{30, Long.MAX_VALUE}) {
            List<SessionEvent> events = new ArrayList<>(successfulPayment(ApiVersion.V1).subList(0, 4));
            events.add(new PaymentSucceededEvent(SESSION, PAYMENT, TRANSACTION, Money.of(10, "eur"), Money.of(fee, "eur"),
                    at(4)));
            JsonNode amounts = render(events).at("/acquiring_payments/0/amounts");
            assertThat(amounts.at("/net")).hasToString("{\"amount\":" + (10 - fee) + ",\"currency\":\"eur\"}");
            assertThat(amounts.at("/fee/merchant_fee/amount").longValue()).isEqualTo(fee);
        }
    }

    @Test
    void unfinishedPaymentLeavesOutFinishedAtFeeTransactionInfoAndError() {
        JsonNode payment = render(successfulPayment(ApiVersion.V1).subList(0, 2)).at("/acquiring_payments/0");

        assertThat(payment.get("status").textValue()).isEqualTo("in_progress");
        assertThat(payment.fieldNames()).toIterable().doesNotContain("finished_at", "amounts", "transaction_info", "error");
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void declineShowsErrorObjectsWithWireCodesOnSessionAndPayment(ApiVersion version) {
        ObjectNode session = render(declinedPayment(version));
        JsonNode payment = session.get(version.paymentListName()).get(0);

        assertThat(session.get("status").textValue()).isEqualTo("cancelled");
        assertThat(session.get("error")).isEqualTo(json("{\"code\":\"declined_by_issuer_bank\",\"description\":\"Payment pm_42 failed\"}"));
        assertThat(payment.get("status").textValue()).isEqualTo("failed");
        assertThat(payment.get("error")).isEqualTo(json("{\"code\":\"declined_by_issuer_bank\",\"description\":\"Declined by the issuer bank\"}"));
        assertThat(payment.get("finished_at").textValue()).isEqualTo("2026-11-22T10:15:34.123456Z");
        assertThat(payment.has("amounts")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"good\"", "{\"merchant\":\"m-1\",\"submerchant\":{\"url\":\"https://shop.example\"}}"})
    void metadataIsEchoedAsGiven(String metadata) {
        List<SessionEvent> events = List.of(created(ApiVersion.V2), started(PAYMENT, json(metadata), at(1)));

        assertThat(render(events).at("/payment_list/0/metadata")).isEqualTo(json(metadata));
    }
}
