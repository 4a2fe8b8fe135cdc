package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.StoredText;
import io.paysession.gateway.support.TestPartner;
import org.junit.jupiter.api.Test;
import org.slf4j.bridge.SLF4JBridgeHandler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After real card payments (one approved, one declined), card payouts (by number, by a server-side token and
 * by a widget's token) and the tokenizations behind them, no table of the database (event store,
 * tokens, read models, outbox, vault) and no line of the service's log holds the card number or the
 * security code in clear (decisions.md section 11), even with Tomcat's connector logger at DEBUG, where it would
 * print every byte it reads.
 */
class CardDataNeverStoredTest extends EndToEndTestBase {

    private static final String TOMCAT_CONNECTOR = "org.apache.coyote.http11";

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private LoggingSystem logging;

    @Test
    void cardNumbersAndSecurityCodesReachNoTableAndNoLogLine() throws IOException {
        // Tomcat logs through java.util.logging, which Spring Boot bridges to Logback; an application that another
        // test started and closed in this JVM may have taken the bridge down, which a service's own JVM never sees
        boolean bridged = SLF4JBridgeHandler.isInstalled();
        if (!bridged) {
            SLF4JBridgeHandler.install();
        }
        logging.setLogLevel(TOMCAT_CONNECTOR, LogLevel.DEBUG);
        // and on Tomcat's side, also for the classes that log, whose levels an earlier test may have pinned
        Map<java.util.logging.Logger, java.util.logging.Level> levels = new LinkedHashMap<>();
        for (String name : List.of(TOMCAT_CONNECTOR, TOMCAT_CONNECTOR + ".Http11Processor",
                TOMCAT_CONNECTOR + ".Http11InputBuffer")) {
            java.util.logging.Logger connector = java.util.logging.Logger.getLogger(name);
            levels.put(connector, connector.getLevel());
            connector.setLevel(java.util.logging.Level.FINE);
        }
        try {
            cardNumbersAndSecurityCodesReachNoTableAndNoLogLineWithTheConnectorAtDebug();
        } finally {
            logging.setLogLevel(TOMCAT_CONNECTOR, null);
            levels.forEach(java.util.logging.Logger::setLevel);
            if (!bridged) {
                SLF4JBridgeHandler.uninstall();
            }
        }
    }

    private void cardNumbersAndSecurityCodesReachNoTableAndNoLogLineWithTheConnectorAtDebug() throws IOException {
        assertThat(java.util.logging.Logger.getLogger(TOMCAT_CONNECTOR + ".Http11InputBuffer")
                .isLoggable(java.util.logging.Level.FINE))
                .as("Tomcat's connector writes what it reads (its DEBUG lines reach the logging bridge)").isTrue();
        TestPartner partner = registeredPartner("pci");
        String approvedNumber = randomVisaNumber();
        String approvedCode = randomSecurityCode();
        String declinedCode = randomSecurityCode();
        String approvedSession = pay(partner, approvedNumber, approvedCode);
        String declinedSession = pay(partner, "4000000000000002", declinedCode);
        String payoutNumber = randomVisaNumber();
        String payoutSession = payOut(partner, "{\"type\":\"card\",\"card\":{\"type\":\"bank_card\","
                + "\"bank_card\":{\"number\":\"" + payoutNumber + "\"}}}");
        String tokenizedNumber = randomVisaNumber();
        Answer tokenized = partner.post("/cds/v1/tokenize/elements", "{\"card_elements\":[{\"ref\":\"number\","
                + "\"type\":\"card_number\",\"card_number\":\"" + tokenizedNumber + "\"}]}");
        assertThat(tokenized.text()).doesNotContain(tokenizedNumber);
        String tokenSession = payOut(partner, "{\"type\":\"card\",\"card\":{\"type\":\"tokenized_card\","
                + "\"tokenized_card\":{\"token\":\"" + tokenized.body().at("/data/number/token").asText() + "\"}}}");

        String widgetNumber = randomVisaNumber();
        String widgetCode = randomSecurityCode();
        Answer widget = tokenizeCard(publicToken(partner), "{\"card\":{\"number\":\"" + widgetNumber + "\","
                + "\"expiration_month\":\"12\",\"expiration_year\":\"34\",\"security_code\":\"" + widgetCode + "\"}}");
        assertThat(widget.status()).as(widget.toString()).isEqualTo(200);
        assertThat(widget.text()).doesNotContain(widgetNumber);
        String widgetSession = payOut(partner, "{\"type\":\"card\",\"card\":{\"type\":\"encrypted_card\","
                + "\"encrypted_card\":{\"number_hash\":\"" + widget.body().at("/data/token").asText() + "\"}}}");

        String hostedNumber = randomVisaNumber();
        String hostedCode = randomSecurityCode();
        String hostedSession = payOnTheHostedForm(partner, hostedNumber, hostedCode);

        // requests Tomcat cannot parse, which it reports quoting the offending line (INFO once, then DEBUG)
        String wireNumber = randomVisaNumber();
        for (int i = 0; i < 2; i++) {
            assertThat(raw("GET /api/v1/session/status?card=" + wireNumber + "|" + i + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n")).as("a request target Tomcat refuses").startsWith("HTTP/1.1 400");
            assertThat(raw("POST /api/v1/session/status HTTP/1.1\r\nHost: localhost\r\nX-Card: " + wireNumber
                    + "\u0001" + i + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"))
                    .as("a header line Tomcat refuses").startsWith("HTTP/1.1 400");
        }

        List<String> secrets = List.of(approvedNumber, "4000000000000002", payoutNumber, tokenizedNumber, widgetNumber,
                wireNumber, hostedNumber);
        List<String> codes = List.of(approvedCode, declinedCode, widgetCode, hostedCode);
        List<String> findings = new ArrayList<>();
        StoredText.forEachValue(jdbc, (place, text) -> findings.addAll(leaks(place, text, secrets, codes)));
        String log = Files.readString(java.nio.file.Path.of(LOG_FILE), StandardCharsets.UTF_8);
        findings.addAll(leaks("service.log", log, secrets, codes));

        assertThat(log).as("the log is written and covers these operations")
                .contains(approvedSession, declinedSession, payoutSession, tokenSession, widgetSession, hostedSession)
                .contains("POST \"/cds/v1/tokenize/card\"").contains("POST \"/cds/v1/acquiring/pay\"");
        assertThat(findings).isEmpty();
        assertThat(jdbc.queryForObject("select count(*) from card_vault where project = ? and cvc_ciphertext is not null",
                Integer.class, partner.project()))
                .as("security codes are erased after the authorization that used them").isZero();
        assertThat(jdbc.queryForObject("select count(*) from card_vault where project = ?", Integer.class,
                partner.project())).isEqualTo(6);
    }

    private String payOut(TestPartner partner, String details) {
        Answer init = partner.post("/api/v1/session/init/payout", "{\"payment_method\":" + details
                + ",\"amount_details\":{\"amount\":1000,\"currency\":\"rub\"},"
                + "\"participant_details\":{\"recipient\":{\"full_name\":\"John Doe\"}}}");
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        return sessionId;
    }

    /** With an idempotency key, so that the kept answer and the request's fingerprint are scanned too. */
    private String pay(TestPartner partner, String number, String securityCode) {
        Answer init = partner.post("/api/v1/session/init/payment", cardPayment(number, securityCode).toString(),
                "pci-" + System.nanoTime());
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        assertThat(init.text()).doesNotContain(number);
        String sessionId = init.session().path("id").asText();
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).rawBody()).doesNotContain(number);
        return sessionId;
    }

    /** A session paid on the acquiring widget's hosted form, as its script calls the service. */
    private String payOnTheHostedForm(TestPartner partner, String number, String securityCode) {
        String sessionId = partner.post("/api/v1/session/create", "{\"amount_details\":{\"amount\":5000,"
                + "\"currency\":\"rub\"},\"customer\":{\"reference\":\"pci-hosted\"}}").session().path("id").asText();
        String token = partner.post("/api/v1/token", "{\"acquiring_widget\":{\"session_id\":\"" + sessionId + "\"}}")
                .body().path("public_token").asText();
        Answer paid = TestPartner.exchange(java.net.http.HttpRequest.newBuilder(java.net.URI.create(baseUrl()
                        + "/cds/v1/acquiring/pay")).header("X-PUBLIC-TOKEN", token).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"card\":{\"number\":\"" + number
                        + "\",\"expiration_month\":\"12\",\"expiration_year\":\"34\",\"security_code\":\""
                        + securityCode + "\"}}")).build());
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(paid.text()).doesNotContain(number);
        WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT);
        partner.post("/api/v1/session/confirm", sessionRef(sessionId));
        assertThat(WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).rawBody()).doesNotContain(number);
        return sessionId;
    }

    /** The status line of Tomcat's answer to {@code request}, sent as is over a fresh connection. */
    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1))
                    .readLine();
        }
    }

    /**
     * Where {@code text} holds a card number, or a security code as a whole value (quoted, after {@code =} or
     * {@code :}); a stack frame's line number ({@code FrameworkServlet.java:1014}) is not a security code, though a
     * random one may equal it. A security code in clear would show as a JSON value or a field of a printed
     * object.
     */
    private static List<String> leaks(String where, String text, List<String> numbers, List<String> codes) {
        List<String> found = new ArrayList<>();
        for (String number : numbers) {
            if (text.contains(number)) {
                found.add(where + " holds a card number");
            }
        }
        for (String code : codes) {
            for (String form : List.of("\"" + code + "\"", "=" + code, ":" + code, ": " + code)) {
                for (int at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
                    boolean wholeValue = at + form.length() == text.length()
                            || !Character.isDigit(text.charAt(at + form.length()));
                    if (wholeValue && !text.startsWith(".java", at - ".java".length())) {
                        found.add(where + " holds a security code as " + form);
                        break;
                    }
                }
            }
        }
        return found;
    }

    /**
     * The last four digits of the numbers drawn, and the codes drawn: a code never equals a number's last four digits,
     * which are stored on purpose (the masked card), so that a stored last4 is never taken for a leaked code.
     */
    private static final Set<String> LAST_FOURS = ConcurrentHashMap.newKeySet(); // 4000000000000002 ends in 0002, which no code (1000-9999) can be
    private static final Set<String> CODES = ConcurrentHashMap.newKeySet();

    private static String randomVisaNumber() {
        while (true) {
            String number = anyVisaNumber();
            String lastFour = number.substring(number.length() - 4);
            if (!CODES.contains(lastFour)) {
                LAST_FOURS.add(lastFour);
                return number;
            }
        }
    }

    private static String anyVisaNumber() {
        StringBuilder digits = new StringBuilder("4");
        for (int i = 0; i < 14; i++) {
            digits.append(ThreadLocalRandom.current().nextInt(10));
        }
        for (int check = 0; check < 10; check++) {
            String candidate = digits.toString() + check;
            if (luhn(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException();
    }

    private static boolean luhn(String number) {
        int sum = 0;
        for (int i = 0; i < number.length(); i++) {
            int digit = number.charAt(number.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
            }
            sum += digit;
        }
        return sum % 10 == 0;
    }

    private static String randomSecurityCode() {
        while (true) {
            String code = String.valueOf(ThreadLocalRandom.current().nextInt(1000, 10000));
            if (!LAST_FOURS.contains(code)) {
                CODES.add(code);
                return code;
            }
        }
    }
}
