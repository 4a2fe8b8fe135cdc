package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code wallet/balance}: the partner's balance per currency at an instant, from the same settlement entries as the
 * reconciliation report (payments less fees, refunds, payouts), and the payouts of a partner paid out from its
 * balance, refused with {@code insufficient_wallet_balance} beyond it.
 */
class WalletBalanceEndToEndTest extends EndToEndTestBase {

    private static final AtomicInteger ORDERS = new AtomicInteger();

    @Test
    void theBalanceFollowsPaymentsRefundsAndPayoutsAndAgreesWithTheReport() throws Exception {
        TestPartner partner = registeredPartner("wallet");
        Answer enabled = admin("PUT", "/admin/v1/partners/" + partner.project(), "{\"payout_from_balance\":true}",
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(enabled.body().path("partner").path("payout_from_balance").asBoolean(false)).isTrue();
        assertThat(balance(partner, Instant.now()).path("wallets")).as("nothing settled yet").isEmpty();
        Instant beforePayment = Instant.now();
        Thread.sleep(5);

        String paid = paid(partner);
        awaitRubBalance(partner, 10_000 - 280);

        ObjectNode refund = sessionRef(paid);
        refund.putObject("amount_details").put("amount", 2_000).put("currency", "rub");
        partner.post("/api/v1/session/refund", refund);
        WEBHOOKS.await(paid, "payment_refunded", WEBHOOK_WAIT);
        awaitRubBalance(partner, 10_000 - 280 - 2_000);
        assertThat(balance(partner, beforePayment).path("wallets")).as("as it stood before the payment").isEmpty();

        JsonNode paidOut = payout(partner, 5_000);
        assertThat(paidOut.path("status").asText()).as(paidOut.toString()).isEqualTo("accepted");
        awaitRubBalance(partner, 10_000 - 280 - 2_000 - 5_000);

        // 2 720 left: of two payouts of 2 000 racing for it, one is paid and the other refused
        CompletableFuture<JsonNode> first = CompletableFuture.supplyAsync(() -> payout(partner, 2_000));
        CompletableFuture<JsonNode> second = CompletableFuture.supplyAsync(() -> payout(partner, 2_000));
        List<JsonNode> both = List.of(first.get(60, TimeUnit.SECONDS), second.get(60, TimeUnit.SECONDS));
        assertThat(both).extracting(session -> session.path("status").asText())
                .containsExactlyInAnyOrder("accepted", "cancelled");
        assertThat(both).filteredOn(session -> session.path("status").asText().equals("cancelled")).singleElement()
                .satisfies(refused -> assertThat(refused.path("payments").path(0).path("error").path("code").asText())
                        .isEqualTo("insufficient_wallet_balance"));
        awaitRubBalance(partner, 720);
        JsonNode wallet = balance(partner, Instant.now()).path("wallets").path(0);
        assertThat(wallet.path("id").asText()).isEqualTo(partner.project() + ":rub");

        String today = LocalDate.now(ZoneOffset.UTC).toString();
        Answer report = admin("GET", "/admin/v1/reports/reconciliation?project=" + partner.project() + "&from=" + today
                + "&to=" + LocalDate.now(ZoneOffset.UTC).plusDays(1), null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(report.body().path("report").path("totals").path("rub").path("net").asLong())
                .as("the report's net is the balance").isEqualTo(720);
    }

    @Test
    void aPartnerWhosePayoutsTheProviderFundsIsPaidOutBeyondItsBalance() {
        TestPartner partner = registeredPartner("wallet-funded");
        JsonNode paidOut = payout(partner, 5_000);
        assertThat(paidOut.path("status").asText()).as(paidOut.toString()).isEqualTo("accepted");
        awaitRubBalance(partner, -5_000);
    }

    @Test
    void aBadInstantIsRefusedNamingTheField() {
        TestPartner partner = registeredPartner("wallet-shape");
        assertRefused(partner.post("/api/v1/wallet/balance", "{}"), "request_datetime is required");
        assertRefused(partner.post("/api/v1/wallet/balance", "{\"request_datetime\":\"yesterday\"}"),
                "request_datetime must be an ISO 8601 date and time");
        assertRefused(partner.post("/api/v1/wallet/balance", "{\"request_datetime\":\"" + Instant.now().plusSeconds(3_600)
                + "\"}"), "must not be in the future");
        Answer withOffset = partner.post("/api/v1/wallet/balance", "{\"request_datetime\":\"2026-01-01T03:00:00+03:00\"}");
        assertThat(withOffset.status()).as(withOffset.toString()).isEqualTo(200);
    }

    private static void assertRefused(Answer answer, String description) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("invalid_request");
        assertThat(answer.errorDescription()).contains(description);
    }

    private String paid(TestPartner partner) {
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123").put("metadata", "order " + ORDERS.incrementAndGet()));
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session().path("status").asText())
                .isEqualTo("accepted");
        return sessionId;
    }

    /** A card payout of {@code amount} rubles' minor units, confirmed; the session of its payment_finished. */
    private JsonNode payout(TestPartner partner, long amount) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_method").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242");
        body.putObject("amount_details").put("amount", amount).put("currency", "rub");
        body.putObject("participant_details").putObject("recipient").put("full_name", "John Doe");
        body.put("metadata", "payout " + ORDERS.incrementAndGet());
        Answer init = partner.post("/api/v1/session/init/payout", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        await().atMost(WEBHOOK_WAIT).pollInterval(Duration.ofMillis(50)).until(() -> WEBHOOKS.forSession(sessionId)
                .stream().anyMatch(webhook -> webhook.type().equals("ready_to_confirm")
                        || webhook.type().equals("payment_finished")));
        if (WEBHOOKS.forSession(sessionId).stream().noneMatch(webhook -> webhook.type().equals("payment_finished"))) {
            partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        }
        return WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
    }

    private JsonNode balance(TestPartner partner, Instant at) {
        Answer answer = partner.post("/api/v1/wallet/balance", "{\"request_datetime\":\"" + at + "\"}");
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.body();
    }

    private void awaitRubBalance(TestPartner partner, long expected) {
        await().atMost(WEBHOOK_WAIT).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            JsonNode wallets = balance(partner, Instant.now()).path("wallets");
            assertThat(wallets).hasSize(1);
            assertThat(wallets.path(0).path("amount_details").path("currency").asText()).isEqualTo("rub");
            assertThat(wallets.path(0).path("amount_details").path("amount").asLong()).isEqualTo(expected);
        });
    }
}
