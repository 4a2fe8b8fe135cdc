package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Chargebacks, the three ways they arrive: from the acquirer (the sandbox charges back payments of card
 * {@code 4000000000000259} after {@code payments.sandbox.chargeback-after}), recorded by the operator (admin API),
 * and, in the sandbox, asked for by the partner ({@code session/chargeback}, as the SDK sends it). Each shows as a
 * refund with {@code is_chargeback: true}, is told by signed {@code payment_refunded}, counts against the refundable
 * amount, and appears in the reconciliation report as a {@code chargeback} line.
 */
class ChargebacksEndToEndTest extends EndToEndTestBase {

    private static final AtomicInteger ORDERS = new AtomicInteger();

    @Test
    void theAcquirerChargesBackThePaymentOfTheTestCardAndTheReportShowsIt() {
        TestPartner partner = registeredPartner("cb-acquirer");
        String sessionId = paid(partner, "v1", "4000000000000259");

        List<Received> refunded = awaitWebhooks(sessionId, "payment_refunded", 2);
        JsonNode opened = refunded.get(0).session();
        assertThat(refunded).allSatisfy(webhook -> assertThat(webhook.signatureValid()).isTrue());
        assertThat(opened.path("status").asText()).isEqualTo("accepted");
        JsonNode openedRefund = opened.path("acquiring_payments").path(0).path("refunds").path(0);
        assertThat(openedRefund.path("is_chargeback").asBoolean(false)).isTrue();
        assertThat(openedRefund.path("status").asText()).isEqualTo("in_progress");
        assertThat(openedRefund.path("amount_details").path("amount").asLong()).isEqualTo(10_000);
        JsonNode withheld = refunded.get(1).session().path("acquiring_payments").path(0);
        assertThat(withheld.path("status").asText()).isEqualTo("succeeded");
        assertThat(withheld.path("refunds").path(0).path("status").asText()).isEqualTo("accepted");
        assertThat(withheld.path("refunds").path(0).path("finished_at").asText()).endsWith("Z");

        ObjectNode refund = sessionRef(sessionId);
        refund.putObject("amount_details").put("amount", 1).put("currency", "rub");
        assertThat(partner.post("/api/v1/session/refund", refund).errorCode())
                .as("the chargeback took all that was paid").isEqualTo("refund_amount_too_large");

        String today = LocalDate.now(ZoneOffset.UTC).toString();
        String tomorrow = LocalDate.now(ZoneOffset.UTC).plusDays(1).toString();
        await().atMost(WEBHOOK_WAIT).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Answer report = admin("GET", "/admin/v1/reports/reconciliation?project=" + partner.project() + "&from="
                    + today + "&to=" + tomorrow + "&ids=true", null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(report.status()).as(report.toString()).isEqualTo(200);
            JsonNode rows = report.body().path("report").path("rows");
            assertThat(rows).anySatisfy(row -> {
                assertThat(row.path("operation").asText()).isEqualTo("chargeback");
                assertThat(row.path("net").asLong()).isEqualTo(-10_000);
                assertThat(row.path("ids").toString()).contains(openedRefund.path("id").asText());
            });
            assertThat(report.body().path("report").path("totals").path("rub").path("net").asLong())
                    .as("paid 10 000 less the fee, then 10 000 charged back").isEqualTo(10_000 - 280 - 10_000);
        });
    }

    @Test
    void thePartnerAsksTheSandboxForAChargebackInBothVersionsAsTheSdkSendsIt() {
        TestPartner partner = registeredPartner("cb-partner");
        for (String version : List.of("v1", "v2")) {
            String payments = version.equals("v1") ? "acquiring_payments" : "payment_list";
            String sessionId = paid(partner, version, "4242424242424242");
            Answer chargeback = partner.post("/api/" + version + "/session/chargeback", sessionRef(sessionId).toString());
            assertThat(chargeback.status()).as(chargeback.toString()).isEqualTo(200);
            JsonNode answered = chargeback.session().path(payments).path(0).path("refunds").path(0);
            assertThat(answered.path("is_chargeback").asBoolean(false)).isTrue();
            assertThat(answered.path("status").asText()).isEqualTo("in_progress");
            assertThat(chargeback.session().path("status").asText()).isEqualTo("accepted");

            List<Received> refunded = awaitWebhooks(sessionId, "payment_refunded", 2);
            assertThat(refunded.get(1).session().path(payments).path(0).path("refunds").path(0).path("status")
                    .asText()).isEqualTo("accepted");
            assertThat(partner.post("/api/" + version + "/session/chargeback", sessionRef(sessionId).put("metadata",
                    "again").toString()).errorCode()).as("nothing is left").isEqualTo("refund_amount_too_large");
        }
        String unpaid = partner.post("/api/v1/session/create", "{}").session().path("id").asText();
        assertThat(partner.post("/api/v1/session/chargeback", sessionRef(unpaid).toString()).errorCode())
                .isEqualTo("session_wrong_state");
        String paid = paid(partner, "v1", "5555555555554444");
        assertThat(registeredPartner("cb-stranger").post("/api/v1/session/chargeback", sessionRef(paid).toString())
                .errorCode()).isEqualTo("authorization_error");
    }

    @Test
    void theOperatorRecordsAChargebackTheAcquirerReportedAlreadyWithheld() {
        TestPartner partner = registeredPartner("cb-operator");
        String sessionId = paid(partner, "v2", "4242424242424242");

        Answer recorded = admin("POST", "/admin/v1/sessions/" + sessionId + "/chargebacks",
                "{\"amount_details\":{\"amount\":3000,\"currency\":\"rub\"},\"reason\":\"Visa dispute 10.4\"}",
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(recorded.status()).as(recorded.toString()).isEqualTo(201);
        JsonNode refund = recorded.body().path("session").path("payment_list").path(0).path("refunds").path(0);
        assertThat(refund.path("is_chargeback").asBoolean(false)).isTrue();
        assertThat(refund.path("status").asText()).isEqualTo("accepted");
        assertThat(recorded.text()).as("the reason is the operator's, not shown").doesNotContain("Visa dispute");

        Received told = WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT);
        assertThat(told.signatureValid()).isTrue();
        assertThat(told.session().path("payment_list").path(0).path("refunds").path(0).path("amount_details")
                .path("amount").asLong()).isEqualTo(3_000);

        ObjectNode rest = sessionRef(sessionId);
        rest.putObject("amount_details").put("amount", 7_001).put("currency", "rub");
        assertThat(partner.post("/api/v2/session/refund", rest).errorCode()).isEqualTo("refund_amount_too_large");
        assertThat(admin("POST", "/admin/v1/sessions/" + sessionId + "/chargebacks",
                "{\"amount_details\":{\"amount\":7001,\"currency\":\"rub\"}}", TestServiceProperties.ADMIN_TOKEN)
                .errorCode()).isEqualTo("refund_amount_too_large");
        assertThat(admin("POST", "/admin/v1/sessions/" + sessionId + "/chargebacks", "{}", "wrong").status())
                .isEqualTo(401);
        assertThat(admin("POST", "/admin/v1/sessions/" + sessionId + "/chargebacks",
                "{\"reason\":\"\"}", TestServiceProperties.ADMIN_TOKEN).errorCode()).isEqualTo("invalid_request");
    }

    private String paid(TestPartner partner, String version, String card) {
        String sessionId = initiatedAndConfirmed(partner, "/api/" + version + "/session/init/payment",
                cardPayment(card, "123").put("metadata", "order " + ORDERS.incrementAndGet()));
        Received finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");
        return sessionId;
    }

    private static List<Received> awaitWebhooks(String sessionId, String type, int count) {
        await().atMost(WEBHOOK_WAIT).pollInterval(Duration.ofMillis(50)).until(() -> WEBHOOKS.forSession(sessionId)
                .stream().filter(webhook -> webhook.type().equals(type)).map(Received::webhookId).distinct().count()
                >= count);
        return WEBHOOKS.forSession(sessionId).stream().filter(webhook -> webhook.type().equals(type))
                .collect(java.util.stream.Collectors.collectingAndThen(java.util.stream.Collectors.toMap(
                        Received::webhookId, webhook -> webhook, (first, again) -> first,
                        java.util.LinkedHashMap::new), map -> List.copyOf(map.values())));
    }
}
