package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.audit.AuditChain;
import io.paysession.gateway.audit.AuditCommandLine;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit export over HTTP (docs/audit.md, "An export an auditor can prove"): the events of a period as JSON lines
 * in a hash chain ending with a head the service key signs, checked by the jar's {@code audit verify-export}, which
 * finds a line changed, removed, inserted or reordered and a head signed by another key; consecutive exports chain.
 */
class AuditExportEndToEndTest extends EndToEndTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path directory;

    @Test
    void anExportVerifiesAndAnyTamperingIsFound() throws Exception {
        Instant start = Instant.now().minusSeconds(1);
        TestPartner partner = registeredPartner("audit-export");
        String first = paidSession(partner);
        String second = paidSession(partner);
        Instant end = Instant.now().plusSeconds(1);

        List<String> lines = export(start, end, null);
        assertThat(lines.size()).isGreaterThan(4);
        String text = String.join("\n", lines);
        assertThat(text).contains(first, second, "PaymentSucceededEvent").doesNotContain("4242424242424242");
        JsonNode head = JSON.readTree(lines.get(lines.size() - 1)).path("head");
        assertThat(head.path("previous_head").asText()).isEqualTo(AuditChain.GENESIS);
        assertThat(head.path("events").asLong()).isEqualTo(lines.size() - 1);
        assertThat(head.path("hash").asText()).isEqualTo(JSON.readTree(lines.get(lines.size() - 2)).path("hash").asText());
        assertThat(verify(lines, null)).startsWith("0 intact: " + (lines.size() - 1) + " event(s)");
        // the same export from the command line, against the database, without the service's help
        Path cliFile = directory.resolve("cli-" + UUID.randomUUID() + ".jsonl");
        ByteArrayOutputStream cliOut = new ByteArrayOutputStream();
        int cliExit = new AuditCommandLine(new PrintStream(cliOut, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Map.of())
                .run(new String[]{"export", "--from=" + start, "--to=" + end, "--out=" + cliFile,
                        "--data-dir=" + DATA_DIRECTORY});
        assertThat(cliExit).as(cliOut.toString(StandardCharsets.UTF_8)).isZero();
        List<String> cliLines = Files.readAllLines(cliFile);
        assertThat(cliOut.toString(StandardCharsets.UTF_8)).startsWith("exported " + (lines.size() - 1) + " event(s)");
        assertThat(cliLines.subList(0, cliLines.size() - 1)).as("line for line what the admin API exported")
                .isEqualTo(lines.subList(0, lines.size() - 1));
        assertThat(JSON.readTree(cliLines.get(cliLines.size() - 1)).path("head").path("hash").asText())
                .isEqualTo(head.path("hash").asText());
        assertThat(verify(cliLines, null)).startsWith("0 intact: " + (lines.size() - 1) + " event(s)");

        // with the published keys (GET /service/public-keys) the key is the one the head names
        String published = TestPartner.exchange(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(baseUrl() + "/service/public-keys")).GET().build()).text();
        assertThat(verify(lines, null, published)).startsWith("0 intact: ");
        ObjectNode otherId = (ObjectNode) JSON.readTree(published);
        ((ObjectNode) otherId.path("keys").path(0)).put("key_id", "service-key-999");
        assertThat(verify(lines, null, otherId.toString())).startsWith("3 NOT intact")
                .contains("names service key " + head.path("key_id").asText() + ", which the published keys given do not list");

        // a line changed: the amount of an event
        List<String> changed = new ArrayList<>(lines);
        int withAmount = indexOf(lines, "10000");
        changed.set(withAmount, lines.get(withAmount).replaceFirst("10000", "1000000"));
        assertThat(verify(changed, null)).startsWith("3 NOT intact").contains("line " + (withAmount + 1)
                + ": its hash does not match its content");
        // a line removed, a line inserted, two lines swapped
        List<String> removed = new ArrayList<>(lines);
        removed.remove(2);
        assertThat(verify(removed, null)).startsWith("3 NOT intact").contains("line 3: prev is not the hash");
        List<String> inserted = new ArrayList<>(lines);
        inserted.add(3, lines.get(1));
        assertThat(verify(inserted, null)).startsWith("3 NOT intact").contains("line 4: prev is not the hash");
        List<String> swapped = new ArrayList<>(lines);
        Collections.swap(swapped, 1, 2);
        assertThat(verify(swapped, null)).startsWith("3 NOT intact").contains("line 2: prev is not the hash",
                "out of order");
        // the last event line dropped, and the head kept
        List<String> cut = new ArrayList<>(lines);
        cut.remove(lines.size() - 2);
        assertThat(verify(cut, null)).startsWith("3 NOT intact").contains("the head's hash is not the last line's");
        // the head re-signed by another key, after the chain was rebuilt around a changed line
        KeyPair forger = TestPartner.newKeyPair();
        ObjectNode forgedHead = (ObjectNode) JSON.readTree(lines.get(lines.size() - 1));
        ((ObjectNode) forgedHead.get("head")).put("exported_at", "2026-01-01T00:00:00.000000Z");
        forgedHead.put("signature", TestPartner.sign(forger,
                AuditChain.canonical(forgedHead.get("head")).getBytes(StandardCharsets.UTF_8)));
        List<String> forged = new ArrayList<>(lines);
        forged.set(lines.size() - 1, AuditChain.canonical(forgedHead));
        assertThat(verify(forged, null)).startsWith("3 NOT intact").contains("not signed by the service key given");
        // the head missing
        assertThat(verify(lines.subList(0, lines.size() - 1), null)).startsWith("3 NOT intact")
                .contains("the export is cut short");
    }

    @Test
    void consecutiveExportsChainAndTogetherHoldWhatOneExportHolds() throws Exception {
        Instant start = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusSeconds(1);
        TestPartner partner = registeredPartner("audit-chain");
        paidSession(partner);
        Instant middle = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Thread.sleep(5);
        paidSession(partner);
        Instant end = Instant.now().plusMillis(200);
        Thread.sleep(1000); // every event before end is stored before the first export: the three see the same events

        List<String> before = export(start, middle, null);
        String firstHead = JSON.readTree(before.get(before.size() - 1)).path("head").path("hash").asText();
        List<String> after = export(middle, end, firstHead);
        assertThat(JSON.readTree(after.get(0)).path("prev").asText()).isEqualTo(firstHead);
        assertThat(verify(after, firstHead)).startsWith("0 intact");
        assertThat(verify(after, AuditChain.GENESIS)).startsWith("3 NOT intact")
                .contains("not the expected " + AuditChain.GENESIS);

        List<String> whole = export(start, end, null);
        assertThat(eventIds(before, after)).isEqualTo(eventIds(whole));
    }

    @Test
    void badArgumentsAndAMissingTokenAreRefused() {
        Answer noToken = admin("GET", "/admin/v1/audit/export?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z",
                null, null);
        assertThat(noToken.status()).isEqualTo(401);
        for (String query : List.of("to=2026-01-02T00:00:00Z", "from=yesterday&to=2026-01-02T00:00:00Z",
                "from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z",
                "from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&previous_head=abc")) {
            Answer answer = admin("GET", "/admin/v1/audit/export?" + query, null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(answer.status()).as(query).isEqualTo(400);
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
        }
    }

    private String paidSession(TestPartner partner) {
        String sessionId = initiatedAndConfirmed(partner, "/api/v1/session/init/payment",
                cardPayment("4242424242424242", "123").put("metadata", "audit " + UUID.randomUUID()));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        return sessionId;
    }

    private List<String> export(Instant from, Instant to, String previousHead) {
        Answer answer = admin("GET", "/admin/v1/audit/export?from=" + from + "&to=" + to
                + (previousHead == null ? "" : "&previous_head=" + previousHead), null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/x-ndjson;charset=UTF-8");
        return answer.text().lines().filter(line -> !line.isBlank()).toList();
    }

    /** {@code audit verify-export} of the jar's command line: its exit code, a space, and what it printed. */
    private String verify(List<String> lines, String previousHead) throws Exception {
        return verify(lines, previousHead, servicePublicKey);
    }

    /** With {@code keys}: a PEM, or the JSON of {@code GET /service/public-keys}. */
    private String verify(List<String> lines, String previousHead, String keys) throws Exception {
        Path file = Files.write(directory.resolve("export-" + UUID.randomUUID() + ".jsonl"), lines);
        Path key = Files.writeString(directory.resolve("service-" + UUID.randomUUID() + ".key"), keys);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("verify-export", file.toString(), "--public-key=" + key));
        if (previousHead != null) {
            args.add("--previous-head=" + previousHead);
        }
        int exit = new AuditCommandLine(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of()).run(args.toArray(String[]::new));
        return exit + " " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size() - 1; i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no line with " + text);
    }

    @SafeVarargs
    private static List<String> eventIds(List<String>... exports) throws Exception {
        List<String> ids = new ArrayList<>();
        for (List<String> export : exports) {
            for (String line : export.subList(0, export.size() - 1)) {
                ids.add(JSON.readTree(line).path("event_id").asText());
            }
        }
        return ids;
    }
}
