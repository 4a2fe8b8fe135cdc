package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10: a generated history of many sessions of two partners (every acquiring method, holds with
 * full and partial captures, refunds accepted and declined, payouts of every kind, failures, cancellations,
 * a binding) gives a reconciliation report equal to what the test computes from what it did and the fee
 * schedule (decisions.md section 7); the report verifies against the event store; a corrupted read-model
 * row is named, and only it.
 */
class ReconciliationEndToEndTest extends EndToEndTestBase {

    private static final long SEED = Long.getLong("reconciliation.seed", 20261123L);
    private static final int EXTRA_SESSIONS = 16;

    @Autowired
    private JdbcTemplate jdbc;

    /** A settled operation as the test expects it: gross and fee from its own inputs. */
    record Settled(String project, String method, String operation, String currency, long gross, long fee,
                   String operationId) {
        long net() {
            return operation.equals("payment") || operation.equals("capture") ? gross - fee : -gross;
        }
    }

    record Failed(String project, String method, String operation, String sessionId, String operationId,
                  String errorCode) {
    }

    /** What the test did, gathered from the scenarios running in parallel. */
    static final class Ledger {
        final List<Settled> settled = Collections.synchronizedList(new ArrayList<>());
        final List<Failed> failed = Collections.synchronizedList(new ArrayList<>());
    }

    @Test
    void aGeneratedHistoryReconcilesWithTheTestsOwnComputationAndVerifiesAgainstTheEventStore() throws Exception {
        TestPartner auto = registeredPartner("recon");
        TestPartner delayed = registeredPartner("reconhold", "delayed");
        Ledger ledger = new Ledger();
        Random random = new Random(SEED);

        List<BiConsumer<Random, Ledger>> kinds = scenarios(auto, delayed);
        List<BiConsumer<Random, Ledger>> plan = new ArrayList<>(kinds);
        for (int i = 0; i < EXTRA_SESSIONS; i++) {
            plan.add(kinds.get(random.nextInt(kinds.size())));
        }
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (BiConsumer<Random, Ledger> scenario : plan) {
                long seed = random.nextLong();
                running.add(pool.submit(() -> scenario.accept(new Random(seed), ledger)));
            }
            for (Future<?> future : running) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long lastEvent = jdbc.queryForObject("select max(global_index) from domain_event_entry", Long.class);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String from = today.minusDays(1).toString();
        String to = today.plusDays(1).toString();

        for (TestPartner partner : List.of(auto, delayed)) {
            JsonNode report = reportAtLeast(partner.project(), from, to, lastEvent);
            assertReportEquals(report, partner.project(), ledger);
            assertCsvTotalsEqual(partner.project(), from, to, report);
            Answer verify = admin("GET", "/admin/v1/reports/reconciliation/verify?project=" + partner.project()
                    + "&from=" + from + "&to=" + to, null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(verify.body().path("matches").asBoolean()).as(verify.toString()).isTrue();
            assertThat(verify.body().path("position").asLong()).isGreaterThanOrEqualTo(lastEvent);
        }

        corruptOneEntryAndOneFailureThenVerify(auto.project(), from, to);
    }

    private void corruptOneEntryAndOneFailureThenVerify(String project, String from, String to) {
        Map<String, Object> entry = jdbc.queryForMap("select entry_id, operation_id, net from settlement_entry "
                + "where project = ? and operation = 'payment' order by entry_id limit 1", project);
        Map<String, Object> failure = jdbc.queryForMap("select * from settlement_failure where project = ? "
                + "order by entry_id limit 1", project);
        long net = ((Number) entry.get("net")).longValue();
        jdbc.update("update settlement_entry set net = net + 1 where entry_id = ?", entry.get("entry_id"));
        jdbc.update("delete from settlement_failure where entry_id = ?", failure.get("entry_id"));
        try {
            Answer verify = admin("GET", "/admin/v1/reports/reconciliation/verify?project=" + project + "&from=" + from
                    + "&to=" + to, null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(verify.body().path("matches").asBoolean()).isFalse();
            List<String> differences = new ArrayList<>();
            verify.body().path("differences").forEach(difference -> differences.add(difference.asText()));
            assertThat(differences).containsExactlyInAnyOrder(
                    "entry " + entry.get("entry_id") + " (payment " + entry.get("operation_id") + "): net " + (net + 1)
                            + " in the read model, " + net + " in the event store",
                    "failure " + failure.get("entry_id") + " (" + failure.get("operation") + " "
                            + failure.get("operation_id") + " " + failure.get("error_code")
                            + "): in the event store but not in the read model");
        } finally {
            jdbc.update("update settlement_entry set net = ? where entry_id = ?", net, entry.get("entry_id"));
            jdbc.update("insert into settlement_failure (entry_id, project, day, method, operation, session_id, "
                            + "operation_id, currency, amount, error_code, global_index) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    failure.get("entry_id"), failure.get("project"), failure.get("day"), failure.get("method"),
                    failure.get("operation"), failure.get("session_id"), failure.get("operation_id"),
                    failure.get("currency"), failure.get("amount"), failure.get("error_code"), failure.get("global_index"));
        }
        Answer again = admin("GET", "/admin/v1/reports/reconciliation/verify?project=" + project + "&from=" + from
                + "&to=" + to, null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(again.body().path("matches").asBoolean()).as("restored: " + again).isTrue();
    }

    /** The report once the read model has reached {@code position}: it says which events it covers. */
    private JsonNode reportAtLeast(String project, String from, String to, long position) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (true) {
            Answer answer = admin("GET", "/admin/v1/reports/reconciliation?project=" + project + "&from=" + from
                    + "&to=" + to + "&ids=true", null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            JsonNode report = answer.body().path("report");
            if (report.path("position").asLong() >= position || System.currentTimeMillis() > deadline) {
                assertThat(report.path("position").asLong()).isGreaterThanOrEqualTo(position);
                return report;
            }
            Thread.sleep(100);
        }
    }

    private static void assertReportEquals(JsonNode report, String project, Ledger ledger) {
        Map<String, long[]> expected = new TreeMap<>();
        Map<String, List<String>> expectedIds = new TreeMap<>();
        Map<String, long[]> expectedTotals = new TreeMap<>();
        for (Settled settled : List.copyOf(ledger.settled)) {
            if (!settled.project().equals(project)) {
                continue;
            }
            String key = settled.currency() + "/" + settled.method() + "/" + settled.operation();
            add(expected.computeIfAbsent(key, k -> new long[4]), 1, settled.gross(), settled.fee(), settled.net());
            add(expectedTotals.computeIfAbsent(settled.currency(), k -> new long[4]), 1, settled.gross(), settled.fee(),
                    settled.net());
            expectedIds.computeIfAbsent(key, k -> new ArrayList<>()).add(settled.operationId());
        }
        Map<String, long[]> actual = new TreeMap<>();
        Map<String, List<String>> actualIds = new TreeMap<>();
        for (JsonNode row : report.path("rows")) {
            // rows are per UTC day: summed over the days here, as the run may cross midnight
            String key = row.path("currency").asText() + "/" + row.path("method").asText() + "/"
                    + row.path("operation").asText();
            add(actual.computeIfAbsent(key, k -> new long[4]), row.path("count").asLong(), row.path("gross").asLong(),
                    row.path("fees").asLong(), row.path("net").asLong());
            row.path("ids").forEach(id -> actualIds.computeIfAbsent(key, k -> new ArrayList<>()).add(id.asText()));
        }
        assertThat(describe(actual)).as("rows of " + project).isEqualTo(describe(expected));
        expectedIds.values().forEach(Collections::sort);
        actualIds.values().forEach(Collections::sort);
        assertThat(actualIds).as("ids behind the rows").isEqualTo(expectedIds);
        Map<String, long[]> totals = new TreeMap<>();
        report.path("totals").fields().forEachRemaining(total -> add(totals.computeIfAbsent(total.getKey(),
                        k -> new long[4]), total.getValue().path("count").asLong(), total.getValue().path("gross").asLong(),
                total.getValue().path("fees").asLong(), total.getValue().path("net").asLong()));
        assertThat(describe(totals)).as("totals of " + project).isEqualTo(describe(expectedTotals));

        List<String> expectedFailures = new ArrayList<>();
        for (Failed failed : List.copyOf(ledger.failed)) {
            if (failed.project().equals(project)) {
                expectedFailures.add(failed.sessionId() + " " + failed.method() + " " + failed.operation() + " "
                        + failed.operationId() + " " + failed.errorCode());
            }
        }
        List<String> failures = new ArrayList<>();
        report.path("failures").forEach(failure -> failures.add(failure.path("session_id").asText() + " "
                + failure.path("method").asText() + " " + failure.path("operation").asText() + " "
                + failure.path("operation_id").asText() + " " + failure.path("error_code").asText()));
        assertThat(failures).as("failed operations of " + project).containsExactlyInAnyOrderElementsOf(expectedFailures);
    }

    private void assertCsvTotalsEqual(String project, String from, String to, JsonNode report) {
        Answer csv = admin("GET", "/admin/v1/reports/reconciliation?project=" + project + "&from=" + from + "&to=" + to
                + "&format=csv", null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(csv.status()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        assertThat(csv.text()).startsWith("section,day,currency,method,operation,count,gross,fees,net,ids,session_id,"
                + "operation_id,amount,error_code,position\n");
        List<Map<String, String>> lines = csvLines(csv.text());
        assertThat(lines).filteredOn(line -> line.get("section").equals("row")).hasSize(report.path("rows").size());
        assertThat(lines).filteredOn(line -> line.get("section").equals("failed")).hasSize(report.path("failures").size());
        report.path("totals").fields().forEachRemaining(total -> assertThat(lines).filteredOn(line ->
                        line.get("section").equals("total") && line.get("currency").equals(total.getKey()))
                .singleElement().satisfies(line -> assertThat(line.get("count") + "," + line.get("gross") + ","
                        + line.get("fees") + "," + line.get("net")).isEqualTo(total.getValue().path("count").asLong()
                        + "," + total.getValue().path("gross").asLong() + "," + total.getValue().path("fees").asLong()
                        + "," + total.getValue().path("net").asLong())));
        assertThat(lines).filteredOn(line -> line.get("section").equals("position")).singleElement()
                .satisfies(line -> assertThat(line.get("position")).isEqualTo(report.path("position").asText()));
    }

    /** The report's CSV read back with the CSV parser, one map per line under the one header. */
    private static List<Map<String, String>> csvLines(String csv) {
        try (MappingIterator<Map<String, String>> lines = new CsvMapper().readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(csv)) {
            return lines.readAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void add(long[] sums, long count, long gross, long fee, long net) {
        sums[0] += count;
        sums[1] += gross;
        sums[2] += fee;
        sums[3] += net;
    }

    private static Map<String, String> describe(Map<String, long[]> sums) {
        Map<String, String> text = new TreeMap<>();
        sums.forEach((key, sum) -> text.put(key, "count " + sum[0] + " gross " + sum[1] + " fees " + sum[2] + " net " + sum[3]));
        return text;
    }

    /** decisions.md section 7: fixed + amount * percent_bp / 10000, half up; the test partners have 30 and 250. */
    private static long fee(long amount) {
        return 30 + (amount * 250 + 5_000) / 10_000;
    }

    private List<BiConsumer<Random, Ledger>> scenarios(TestPartner auto, TestPartner delayed) {
        List<BiConsumer<Random, Ledger>> kinds = new ArrayList<>();
        kinds.add((random, ledger) -> cardPaidAndRefunded(auto, random, ledger, pick(random,
                "4242424242424242", "5555555555554444", "2200000000000004")));
        kinds.add((random, ledger) -> cardDeclined(auto, random, ledger, "4000000000000002", "declined_by_issuer_bank"));
        kinds.add((random, ledger) -> cardDeclined(auto, random, ledger, "4000000000009995", "insufficient_funds"));
        kinds.add((random, ledger) -> refundDeclined(auto, random, ledger));
        kinds.add((random, ledger) -> payerMethod(auto, random, ledger, "card", true));
        kinds.add((random, ledger) -> payerMethod(auto, random, ledger, "card", false));
        kinds.add((random, ledger) -> payerMethod(auto, random, ledger, "wallet", random.nextBoolean()));
        kinds.add((random, ledger) -> payerMethod(auto, random, ledger, "bank_app_pay", true));
        kinds.add((random, ledger) -> payerMethod(auto, random, ledger, "qr_app_pay", true));
        kinds.add((random, ledger) -> payerMethod(auto, random, ledger, "faster_payment_system", true));
        kinds.add((random, ledger) -> payerMethod(auto, random, ledger, "faster_payment_system", false));
        kinds.add((random, ledger) -> binding(auto));
        kinds.add((random, ledger) -> cardPayout(auto, random, ledger));
        kinds.add((random, ledger) -> ibanPayout(auto, random, ledger, "DE89370400440532013000"));
        kinds.add((random, ledger) -> ibanPayout(auto, random, ledger, "GB33BUKB20201555555555"));
        kinds.add((random, ledger) -> fpsPayout(auto, random, ledger));
        kinds.add((random, ledger) -> payoutCancelled(auto, random, ledger));
        kinds.add((random, ledger) -> heldAndCaptured(delayed, random, ledger, true));
        kinds.add((random, ledger) -> heldAndCaptured(delayed, random, ledger, false));
        kinds.add((random, ledger) -> heldAndCancelled(delayed, random, ledger));
        return kinds;
    }

    private void cardPaidAndRefunded(TestPartner partner, Random random, Ledger ledger, String card) {
        long amount = amount(random);
        String version = random.nextBoolean() ? "v1" : "v2";
        String sessionId = confirmed(partner, version, card(card, amount));
        JsonNode payment = payment(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session());
        assertThat(payment.path("status").asText()).isEqualTo("succeeded");
        ledger.settled.add(new Settled(partner.project(), "card", "payment", "rub", amount, fee(amount),
                payment.path("id").asText()));
        refundSome(partner, random, ledger, sessionId, version, "card", amount);
    }

    private void refundSome(TestPartner partner, Random random, Ledger ledger, String sessionId, String version,
                            String method, long captured) {
        int refunds = random.nextInt(3);
        long left = captured;
        for (int i = 0; i < refunds && left > 1; i++) {
            long amount = 1 + random.nextInt((int) Math.min(left - 1, Integer.MAX_VALUE - 1));
            left -= amount;
            ObjectNode refund = sessionRef(sessionId);
            refund.putObject("amount_details").put("amount", amount).put("currency", "rub");
            Answer answer = partner.post("/api/" + version + "/session/refund", refund);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            JsonNode refundView = payment(answer.session()).path("refunds").path(i);
            ledger.settled.add(new Settled(partner.project(), method, "refund", "rub", amount, 0,
                    refundView.path("id").asText()));
            awaitWebhooks(sessionId, "payment_refunded", i + 1);
        }
    }

    private void cardDeclined(TestPartner partner, Random random, Ledger ledger, String card, String code) {
        String sessionId = confirmed(partner, "v1", card(card, amount(random)));
        JsonNode payment = payment(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session());
        assertThat(payment.path("error").path("code").asText()).isEqualTo(code);
        ledger.failed.add(new Failed(partner.project(), "card", "payment", sessionId, payment.path("id").asText(), code));
    }

    private void refundDeclined(TestPartner partner, Random random, Ledger ledger) {
        long amount = amount(random);
        String sessionId = confirmed(partner, "v1", card("4000000000005126", amount));
        JsonNode payment = payment(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session());
        ledger.settled.add(new Settled(partner.project(), "card", "payment", "rub", amount, fee(amount),
                payment.path("id").asText()));
        Answer refund = partner.post("/api/v1/session/refund", sessionRef(sessionId));
        assertThat(refund.status()).as(refund.toString()).isEqualTo(200);
        JsonNode declined = payment(WEBHOOKS.await(sessionId, "payment_refunded", WEBHOOK_WAIT).session())
                .path("refunds").path(0);
        assertThat(declined.path("status").asText()).isEqualTo("declined");
        ledger.failed.add(new Failed(partner.project(), "card", "refund", sessionId, declined.path("id").asText(),
                "declined_by_issuer_bank"));
    }

    /** A method whose payer acts on a hosted page: 3-D Secure card, e-wallet, bank app, QR app, instant payment. */
    private void payerMethod(TestPartner partner, Random random, Ledger ledger, String method, boolean approve) {
        long amount = amount(random);
        ObjectNode body = switch (method) {
            case "card" -> card("4000000000003220", amount);
            case "wallet" -> method(amount, details -> details.put("type", "wallet").putObject("wallet")
                    .put("type", "ewallet"));
            case "bank_app_pay" -> method(amount, details -> details.put("type", "internet_banking")
                    .putObject("internet_banking").put("type", "bank_app_pay"));
            case "qr_app_pay" -> method(amount, details -> details.put("type", "internet_banking")
                    .putObject("internet_banking").put("type", "qr_app_pay").putObject("qr_app_pay")
                    .put("phone", "79261234567"));
            default -> method(amount, details -> details.put("type", "faster_payment_system"));
        };
        String sessionId = confirmed(partner, "v1", body);
        JsonNode interaction = payment(WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session())
                .path("customer_interaction");
        payerAnswers(interaction.has("redirect") ? interaction.path("redirect").path("url").asText()
                : interaction.path("inform").path("qr").path("content").asText(), approve);
        JsonNode payment = payment(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session());
        if (approve) {
            assertThat(payment.path("status").asText()).isEqualTo("succeeded");
            ledger.settled.add(new Settled(partner.project(), method, "payment", "rub", amount, fee(amount),
                    payment.path("id").asText()));
            if (!method.equals("faster_payment_system")) {
                refundSome(partner, random, ledger, sessionId, "v1", method, amount);
            }
        } else {
            assertThat(payment.path("status").asText()).isEqualTo("failed");
            String code = payment.path("error").path("code").asText();
            assertThat(code).isNotBlank();
            if (method.equals("card")) {
                assertThat(code).isEqualTo("3DS_error");
            }
            ledger.failed.add(new Failed(partner.project(), method, "payment", sessionId, payment.path("id").asText(),
                    code));
        }
    }

    private void binding(TestPartner partner) {
        ObjectNode body = method(1, details -> details.put("type", "faster_payment_system_binding"));
        body.putObject("payment_options").put("recurrent", true);
        String sessionId = confirmed(partner, "v1", body);
        payerAnswers(payment(WEBHOOKS.await(sessionId, "action_required", WEBHOOK_WAIT).session())
                .path("customer_interaction").path("inform").path("qr").path("content").asText(), true);
        assertThat(payment(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session()).path("status").asText())
                .isEqualTo("succeeded"); // and nothing settles
    }

    private void cardPayout(TestPartner partner, Random random, Ledger ledger) {
        long amount = amount(random);
        ObjectNode body = payoutBody("payment_method", amount, "rub", details -> details.put("type", "card")
                .putObject("card").put("type", "bank_card").putObject("bank_card").put("number", "4242424242424242"));
        recipient(body).put("full_name", "John Doe");
        payout(partner, "v1", body, ledger, "card", amount, "rub", null);
    }

    private void ibanPayout(TestPartner partner, Random random, Ledger ledger, String iban) {
        long amount = amount(random);
        ObjectNode body = payoutBody("payout_details", amount, "eur", details -> details.put("type", "bank_account")
                .putObject("bank_account").put("system_type", "global").putObject("global").put("iban", iban)
                .put("description", "rent"));
        recipient(body).put("first_name", "Hans").put("last_name", "Müller").put("bank_name", "Example Bank")
                .put("currency", "eur").put("country_iso3", "DEU");
        payout(partner, "v2", body, ledger, "bank_account", amount, "eur",
                iban.startsWith("GB33") ? "account_not_found" : null);
    }

    private void fpsPayout(TestPartner partner, Random random, Ledger ledger) {
        long amount = amount(random);
        ObjectNode body = payoutBody("payment_method", amount, "rub", details -> details.put("type", "bank_account")
                .putObject("bank_account").put("system_type", "faster_payment_system")
                .putObject("faster_payment_system").put("phone", "79261234567").put("bank_id", "100000000069")
                .put("description", "salary"));
        payout(partner, "v1", body, ledger, "faster_payment_system", amount, "rub", null);
    }

    private void payout(TestPartner partner, String version, ObjectNode body, Ledger ledger, String method, long amount,
                        String currency, String failure) {
        String sessionId = readyToConfirm(partner, version, "payout", body);
        assertThat(partner.post("/api/" + version + "/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        JsonNode payout = payout(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session());
        if (failure == null) {
            assertThat(payout.path("status").asText()).as(payout.toString()).isEqualTo("succeeded");
            ledger.settled.add(new Settled(partner.project(), method, "payout", currency, amount, 0,
                    payout.path("id").asText()));
        } else {
            assertThat(payout.path("error").path("code").asText()).isEqualTo(failure);
            ledger.failed.add(new Failed(partner.project(), method, "payout", sessionId, payout.path("id").asText(),
                    failure));
        }
    }

    private void payoutCancelled(TestPartner partner, Random random, Ledger ledger) {
        ObjectNode body = payoutBody("payment_method", amount(random), "rub", details -> details.put("type", "card")
                .putObject("card").put("type", "bank_card").putObject("bank_card").put("number", "5555555555554444"));
        recipient(body).put("full_name", "Jane Doe");
        String sessionId = readyToConfirm(partner, "v1", "payout", body);
        Answer cancel = partner.post("/api/v1/session/cancel", sessionRef(sessionId));
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(200);
        ledger.failed.add(new Failed(partner.project(), "card", "payout", sessionId,
                payout(cancel.session()).path("id").asText(), "session_cancelled_by_partner"));
    }

    private void heldAndCaptured(TestPartner partner, Random random, Ledger ledger, boolean partly) {
        long amount = amount(random);
        String sessionId = confirmed(partner, "v1", card("4242424242424242", amount));
        WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
        long captured = partly ? 1 + random.nextInt((int) amount) : amount;
        ObjectNode capture = sessionRef(sessionId);
        if (partly) {
            capture.putObject("amount_details").put("amount", captured).put("currency", "rub");
        }
        Answer answer = partner.post("/api/v1/session/capture", capture);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        JsonNode payment = payment(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session());
        assertThat(payment.path("amounts").path("gross").path("amount").asLong()).isEqualTo(captured);
        ledger.settled.add(new Settled(partner.project(), "card", "capture", "rub", captured, fee(captured),
                payment.path("id").asText()));
        refundSome(partner, random, ledger, sessionId, "v1", "card", captured);
    }

    private void heldAndCancelled(TestPartner partner, Random random, Ledger ledger) {
        String sessionId = confirmed(partner, "v1", card("5555555555554444", amount(random)));
        WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
        Answer cancel = partner.post("/api/v1/session/cancel", sessionRef(sessionId));
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(200);
        ledger.failed.add(new Failed(partner.project(), "card", "payment", sessionId,
                payment(cancel.session()).path("id").asText(), "session_cancelled_by_partner"));
    }

    private String confirmed(TestPartner partner, String version, ObjectNode body) {
        String sessionId = readyToConfirm(partner, version, "payment", body);
        Answer confirm = partner.post("/api/" + version + "/session/confirm", sessionRef(sessionId));
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        return sessionId;
    }

    private String readyToConfirm(TestPartner partner, String version, String kind, ObjectNode body) {
        Answer init = partner.post("/api/" + version + "/session/init/" + kind, body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        return sessionId;
    }

    private static void awaitWebhooks(String sessionId, String type, int count) {
        long deadline = System.currentTimeMillis() + WEBHOOK_WAIT.toMillis();
        while (WEBHOOKS.forSession(sessionId).stream().filter(received -> received.type().equals(type)).count() < count) {
            assertThat(System.currentTimeMillis()).as(count + " " + type + " webhooks of " + sessionId).isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static ObjectNode card(String number, long amount) {
        ObjectNode body = cardPayment(number, "123");
        ((ObjectNode) body.get("amount_details")).put("amount", amount).put("currency", "rub");
        return body;
    }

    private static ObjectNode method(long amount, java.util.function.Consumer<ObjectNode> details) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        details.accept(body.putObject("payment_details"));
        body.putObject("amount_details").put("amount", amount).put("currency", "rub");
        body.putObject("customer").put("reference", "reconciled-customer");
        return body;
    }

    private static ObjectNode payoutBody(String detailsName, long amount, String currency,
                                         java.util.function.Consumer<ObjectNode> details) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        details.accept(body.putObject(detailsName));
        body.putObject("amount_details").put("amount", amount).put("currency", currency);
        return body;
    }

    private static ObjectNode recipient(ObjectNode body) {
        return body.putObject("participant_details").putObject("recipient");
    }

    private static JsonNode payment(JsonNode session) {
        return session.has("payment_list") ? session.path("payment_list").path(0) : session.path("acquiring_payments").path(0);
    }

    private static JsonNode payout(JsonNode session) {
        return session.has("payout_list") ? session.path("payout_list").path(0) : session.path("payments").path(0);
    }

    /** Amounts from 1.00 to 5 000.00 in minor units, some round, some not. */
    private static long amount(Random random) {
        return random.nextBoolean() ? 100 * (1 + random.nextInt(5_000)) : 100 + random.nextInt(500_000);
    }

    private static String pick(Random random, String... values) {
        return values[random.nextInt(values.length)];
    }
}
