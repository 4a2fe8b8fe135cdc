package io.paysession.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.paysession.api.settlement.FailedOperation;
import io.paysession.api.settlement.SettlementEntry;
import io.paysession.api.settlement.SettlementReport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The reconciliation report as an accountant's spreadsheet and as the admin API's JSON. */
class ReportFormatsTest {

    private static final LocalDate DAY = LocalDate.parse("2026-11-23");
    private static final String AWKWARD = "declined, \"hard\"\nby the issuer";

    private final SettlementReport report = SettlementReport.of("shop", DAY, DAY, 41,
            List.of(entry("e1", "pm_1", 10_000, 280), entry("e2", "pm_2", 5_000, 180)),
            List.of(new FailedOperation("f1", "shop", DAY, "card", "payment", "ps_7", "pm_8", "rub", 700L, AWKWARD, 30),
                    new FailedOperation("f2", "shop", DAY, "card", "payout", "ps_9", "po_10", null, null,
                            "account_not_found", 31)),
            true);

    @Test
    void theCsvHasOneHeaderAndALinePerRowTotalFailureAndThePosition() throws IOException {
        String csv = ReportFormats.csv(report);

        assertThat(csv).startsWith("section,day,currency,method,operation,count,gross,fees,net,ids,session_id,"
                + "operation_id,amount,error_code,position\n");
        assertThat(csv.split("section,", -1)).hasSize(2); // the header once, and no line of its own
        List<Map<String, String>> lines = read(csv);
        assertThat(lines).extracting(line -> line.get("section")).containsExactly("row", "total", "failed", "failed",
                "position");
        assertThat(lines.get(0)).containsEntry("day", "2026-11-23").containsEntry("currency", "rub")
                .containsEntry("method", "card").containsEntry("operation", "payment").containsEntry("count", "2")
                .containsEntry("gross", "15000").containsEntry("fees", "460").containsEntry("net", "14540")
                .containsEntry("ids", "pm_1 pm_2").containsEntry("session_id", "");
        assertThat(lines.get(1)).containsEntry("currency", "rub").containsEntry("count", "2")
                .containsEntry("net", "14540").containsEntry("day", "").containsEntry("method", "");
        assertThat(lines.get(3)).containsEntry("operation_id", "po_10").containsEntry("amount", "")
                .containsEntry("error_code", "account_not_found");
        assertThat(lines.get(4)).containsEntry("position", "41").containsEntry("count", "");
    }

    @Test
    void aFieldHoldingACommaAQuoteAndANewlineSurvivesTheRoundTrip() throws IOException {
        List<Map<String, String>> lines = read(ReportFormats.csv(report));

        assertThat(lines.get(2)).containsEntry("section", "failed").containsEntry("error_code", AWKWARD)
                .containsEntry("session_id", "ps_7").containsEntry("amount", "700");
    }

    @Test
    void theJsonKeepsTheAdminApisShape() {
        JsonNode json = ReportFormats.json(report);

        assertThat(json.path("project").asText()).isEqualTo("shop");
        assertThat(json.path("from").asText()).isEqualTo("2026-11-23");
        assertThat(json.path("position").asLong()).isEqualTo(41);
        JsonNode row = json.path("rows").path(0);
        assertThat(row.path("day").asText()).isEqualTo("2026-11-23");
        assertThat(row.path("net").asLong()).isEqualTo(14_540);
        assertThat(row.path("ids")).hasSize(2);
        assertThat(json.path("totals").path("rub").properties()).extracting(Map.Entry::getKey)
                .containsExactly("count", "gross", "fees", "net");
        JsonNode withAmount = json.path("failures").path(0);
        assertThat(withAmount.path("session_id").asText()).isEqualTo("ps_7");
        assertThat(withAmount.path("error_code").asText()).isEqualTo(AWKWARD);
        assertThat(withAmount.path("amount").asLong()).isEqualTo(700);
        JsonNode withoutAmount = json.path("failures").path(1);
        assertThat(withoutAmount.has("amount")).isFalse();
        assertThat(withoutAmount.has("currency")).isFalse();
        assertThat(withoutAmount.path("operation_id").asText()).isEqualTo("po_10");
        assertThat(ReportFormats.json(SettlementReport.of("shop", DAY, DAY, 41, List.of(entry("e1", "pm_1", 100, 3)),
                List.of(), false)).path("rows").path(0).has("ids")).isFalse();
    }

    private static List<Map<String, String>> read(String csv) throws IOException {
        try (MappingIterator<Map<String, String>> lines = new CsvMapper().readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(csv)) {
            return lines.readAll();
        }
    }

    private static SettlementEntry entry(String id, String paymentId, long gross, long fee) {
        return new SettlementEntry(id, "shop", DAY, "rub", "card", SettlementEntry.Operation.PAYMENT, "ps_1", paymentId,
                gross, fee, gross - fee, 10);
    }
}
