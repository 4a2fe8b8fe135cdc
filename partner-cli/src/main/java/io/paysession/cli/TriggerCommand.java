package io.paysession.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code trigger SCENARIO}: a sandbox scenario run end to end as the partner, so that the partner's endpoint receives
 * the real sequence of webhooks: the requests signed and sent, the hosted payer pages answered where the scenario
 * needs a payer, each webhook followed through the partner's own notification listing.
 */
@Command(name = "trigger", mixinStandardHelpOptions = true,
        description = {"Runs a sandbox scenario end to end (the payer's pages answered by the command) so that your "
                + "endpoint receives its real webhooks. Without SCENARIO: the list."})
final class TriggerCommand implements Callable<Integer> {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Context context;

    @Mixin
    Connection connection;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "the scenario (none: the list)")
    String scenario;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "60s",
            converter = ListenCommand.DurationConverter.class,
            description = "the longest wait for one webhook (default: ${DEFAULT-VALUE})")
    Duration timeout;

    TriggerCommand(Context context) {
        this.context = context;
        this.connection = new Connection(context);
    }

    /** A scenario: what it shows, and its steps. */
    private record Scenario(String description, Consumer<Run> steps) {
    }

    static final Map<String, Scenario> SCENARIOS = scenarios();

    private static Map<String, Scenario> scenarios() {
        Map<String, Scenario> all = new LinkedHashMap<>();
        all.put("card-succeeded", new Scenario("a card payment, confirmed and paid", run -> {
            String session = run.init("session/init/payment", payment(card("4242424242424242")));
            run.confirmAndFinish(session, "succeeded");
        }));
        all.put("card-declined", new Scenario("a card payment the issuer declines after confirmation", run -> {
            String session = run.init("session/init/payment", payment(card("4000000000000002")));
            run.confirmAndFinish(session, "failed");
        }));
        all.put("3ds-approved", new Scenario("a card payment with 3-D Secure, the payer approves", run -> {
            String session = run.init("session/init/payment", payment(card("4000000000003220")));
            run.confirmPayerAndFinish(session, true, "succeeded");
        }));
        all.put("3ds-declined", new Scenario("a card payment with 3-D Secure, the payer declines", run -> {
            String session = run.init("session/init/payment", payment(card("4000000000003220")));
            run.confirmPayerAndFinish(session, false, "failed");
        }));
        all.put("delayed-capture", new Scenario("a card payment held, then captured (a partner with capture_mode "
                + "delayed)", run -> {
            String session = run.init("session/init/payment", payment(card("4242424242424242")));
            run.await(session, "ready_to_confirm");
            run.call("session/confirm", sessionRef(session));
            JsonNode next = run.awaitAny(session, "ready_to_capture", "payment_finished");
            if (next.path("type").asText().equals("payment_finished")) {
                throw new CliException("the payment was captured at once: this partner's capture_mode is auto (the "
                        + "operator sets delayed with PUT /admin/v1/partners/" + run.project + ")");
            }
            run.call("session/capture", sessionRef(session));
            run.finish(session, "succeeded");
        }));
        all.put("partial-refund", new Scenario("a card payment paid, then a quarter of it refunded", run -> {
            String session = run.init("session/init/payment", payment(card("4242424242424242")));
            run.confirmAndFinish(session, "succeeded");
            ObjectNode refund = sessionRef(session);
            refund.putObject("amount_details").put("amount", 2500).put("currency", "rub");
            run.call("session/refund", refund);
            run.await(session, "payment_refunded");
        }));
        all.put("ewallet", new Scenario("an e-wallet payment, the payer approves in the wallet", run -> {
            ObjectNode details = ServiceApi.JSON.createObjectNode().put("type", "wallet");
            details.putObject("wallet").put("type", "ewallet");
            run.confirmPayerAndFinish(run.init("session/init/payment", payment(details)), true, "succeeded");
        }));
        all.put("bank-app", new Scenario("a bank application payment, the payer approves in the bank's app", run -> {
            ObjectNode details = ServiceApi.JSON.createObjectNode().put("type", "internet_banking");
            details.putObject("internet_banking").put("type", "bank_app_pay");
            run.confirmPayerAndFinish(run.init("session/init/payment", payment(details)), true, "succeeded");
        }));
        all.put("qr", new Scenario("a QR application payment, the payer scans and approves", run -> {
            ObjectNode details = ServiceApi.JSON.createObjectNode().put("type", "internet_banking");
            details.putObject("internet_banking").put("type", "qr_app_pay").putObject("qr_app_pay")
                    .put("phone", "79261234567");
            run.confirmPayerAndFinish(run.init("session/init/payment", payment(details)), true, "succeeded");
        }));
        all.put("instant-payment", new Scenario("an instant-payment system payment, the payer pays the QR code", run -> {
            ObjectNode details = ServiceApi.JSON.createObjectNode().put("type", "faster_payment_system");
            details.putObject("faster_payment_system").put("description", "Order 42");
            run.confirmPayerAndFinish(run.init("session/init/payment", payment(details)), true, "succeeded");
        }));
        all.put("payout-card", new Scenario("a payout to a card number", run -> {
            ObjectNode method = ServiceApi.JSON.createObjectNode().put("type", "card");
            method.putObject("card").put("type", "bank_card").putObject("bank_card").put("number", "4242424242424242");
            run.confirmAndFinish(run.init("session/init/payout", payout(method, "rub")), "succeeded");
        }));
        all.put("payout-card-token", new Scenario("a card tokenized by the partner's server, then paid out to", run -> {
            ObjectNode elements = ServiceApi.JSON.createObjectNode();
            elements.putArray("card_elements").addObject().put("ref", "number").put("type", "card_number")
                    .put("card_number", newCardNumber());
            String token = run.call("/cds/v1/tokenize/elements", elements).json().at("/data/number/token").asText();
            if (token.isEmpty()) {
                throw new CliException("tokenize/elements gave no token");
            }
            ObjectNode method = ServiceApi.JSON.createObjectNode().put("type", "card");
            method.putObject("card").put("type", "tokenized_card").putObject("tokenized_card").put("token", token);
            run.confirmAndFinish(run.init("session/init/payout", payout(method, "rub")), "succeeded");
        }));
        all.put("payout-card-widget", new Scenario("a card typed by the payer into the tokenizer widget, then paid out "
                + "to (the command plays the widget's part)", run -> {
            ObjectNode access = ServiceApi.JSON.createObjectNode();
            access.putObject("tokenize_widget").put("access", true);
            String publicToken = run.call("token", access).json().path("public_token").asText();
            ObjectNode card = ServiceApi.JSON.createObjectNode();
            card.putObject("card").put("number", newCardNumber()).put("expiration_month", "12")
                    .put("expiration_year", "34").put("security_code", "123");
            String url = run.service.baseUrl() + "/cds/v1/tokenize/card";
            ServiceApi.Answer typed = run.service.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .header("X-PUBLIC-TOKEN", publicToken)
                    .POST(HttpRequest.BodyPublishers.ofString(card.toString())).build(), url);
            run.say("the payer's widget: POST /cds/v1/tokenize/card -> HTTP " + typed.status());
            String token = typed.json().at("/data/token").asText();
            if (!typed.ok() || token.isEmpty()) {
                throw new CliException("the widget's tokenization answered HTTP " + typed.status() + " "
                        + typed.errorCode());
            }
            ObjectNode method = ServiceApi.JSON.createObjectNode().put("type", "card");
            method.putObject("card").put("type", "encrypted_card").putObject("encrypted_card")
                    .put("number_hash", token);
            run.confirmAndFinish(run.init("session/init/payout", payout(method, "rub")), "succeeded");
        }));
        all.put("payout-iban", new Scenario("a payout to an IBAN account", run -> {
            ObjectNode method = ServiceApi.JSON.createObjectNode().put("type", "bank_account");
            method.putObject("bank_account").put("system_type", "global").putObject("global")
                    .put("iban", "DE89370400440532013000").put("description", "rent");
            ObjectNode body = payout(method, "eur");
            ((ObjectNode) body.path("participant_details").path("recipient")).put("first_name", "Hans").put("last_name", "Muller")
                    .put("bank_name", "Example Bank").put("currency", "eur").put("country_iso3", "DEU");
            run.confirmAndFinish(run.init("session/init/payout", body), "succeeded");
        }));
        all.put("payout-instant", new Scenario("a payout by the instant-payment system to a phone", run -> {
            ObjectNode method = ServiceApi.JSON.createObjectNode().put("type", "bank_account");
            method.putObject("bank_account").put("system_type", "faster_payment_system")
                    .putObject("faster_payment_system").put("phone", "79261234567").put("bank_id", "100000000069")
                    .put("description", "salary");
            run.confirmAndFinish(run.init("session/init/payout", payout(method, "rub")), "succeeded");
        }));
        all.put("recurrent", new Scenario("a card payment that grants a recurrent token, then a merchant-initiated "
                + "charge with it", run -> {
            ObjectNode first = payment(card("4242424242424242"));
            first.putObject("payment_options").put("recurrent", true);
            String session = run.init("session/init/payment", first);
            JsonNode finished = run.confirmAndFinish(session, "succeeded");
            String token = finished.at("/session/acquiring_payments/0/recurrent/token").asText();
            if (token.isEmpty()) {
                throw new CliException("payment_finished carries no recurrent token");
            }
            run.say("recurrent token " + token);
            ObjectNode details = ServiceApi.JSON.createObjectNode().put("type", "recurrent");
            details.putObject("recurrent").put("token", token).put("initiator", "merchant");
            run.confirmAndFinish(run.init("session/init/payment", payment(details)), "succeeded");
        }));
        return all;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (scenario == null) {
            context.out().println("Scenarios (trigger SCENARIO):");
            SCENARIOS.forEach((name, value) -> context.out().printf("  %-18s %s%n", name, value.description()));
            return 0;
        }
        Scenario chosen = SCENARIOS.get(scenario);
        if (chosen == null) {
            throw new CliException("no scenario " + scenario + "; the scenarios: " + String.join(", ", SCENARIOS.keySet()));
        }
        Run run = new Run(context, new ServiceApi(context.http(), connection.baseUrl()), connection.project(),
                connection.privateKey(), timeout);
        context.out().println("scenario " + scenario + ": " + chosen.description() + " (as " + connection.project()
                + " at " + connection.baseUrl() + ")");
        chosen.steps().accept(run);
        context.out().println("done: " + run.sessions.size() + " session(s), webhooks " + run.received);
        return 0;
    }

    private static ObjectNode card(String number) {
        ObjectNode details = ServiceApi.JSON.createObjectNode().put("type", "card");
        details.putObject("card").put("type", "bank_card").putObject("bank_card").put("number", number)
                .put("expiration_month", "12").put("expiration_year", "34").put("security_code", "123");
        return details;
    }

    private static ObjectNode payment(ObjectNode details) {
        ObjectNode body = ServiceApi.JSON.createObjectNode();
        body.set("payment_details", details);
        body.putObject("amount_details").put("amount", 10000).put("currency", "rub");
        body.putObject("customer").put("reference", "trigger");
        return ordered(body);
    }

    private static ObjectNode payout(ObjectNode method, String currency) {
        ObjectNode body = ServiceApi.JSON.createObjectNode();
        body.set("payment_method", method);
        body.putObject("amount_details").put("amount", 150_000).put("currency", currency);
        body.putObject("participant_details").putObject("recipient").put("full_name", "John Doe");
        return ordered(body);
    }

    /**
     * A reference of its own in {@code metadata}: the service refuses a signed body sent before (replay protection),
     * so that running a scenario again needs bodies of their own, as a partner's orders have.
     */
    private static ObjectNode ordered(ObjectNode body) {
        return body.put("metadata", "trigger " + UUID.randomUUID());
    }

    /** A card number of the test range that passes the Luhn check, new each time (a tokenized card is new). */
    static String newCardNumber() {
        int[] digits = new int[16];
        digits[0] = 4;
        for (int i = 1; i < 15; i++) {
            digits[i] = RANDOM.nextInt(10);
        }
        int sum = 0;
        for (int i = 14, position = 0; i >= 0; i--, position++) {
            int digit = digits[i];
            if (position % 2 == 0) {
                digit *= 2;
                if (digit > 9) {
                    digit -= 9;
                }
            }
            sum += digit;
        }
        digits[15] = (10 - sum % 10) % 10;
        StringBuilder number = new StringBuilder();
        for (int digit : digits) {
            number.append(digit);
        }
        return number.toString();
    }

    private static ObjectNode sessionRef(String session) {
        return ServiceApi.JSON.createObjectNode().put("session_id", session);
    }

    /** One scenario's run: its requests, its sessions, and the webhooks seen for them. */
    private static final class Run {
        private final Context context;
        private final ServiceApi service;
        private final String project;
        private final PrivateKey key;
        private final Duration timeout;
        private final List<String> sessions = new ArrayList<>();
        private final List<String> received = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();

        Run(Context context, ServiceApi service, String project, PrivateKey key, Duration timeout) {
            this.context = context;
            this.service = service;
            this.project = project;
            this.key = key;
            this.timeout = timeout;
        }

        void say(String line) {
            context.out().println("  " + line);
            context.out().flush();
        }

        ServiceApi.Answer call(String method, ObjectNode body) {
            String path = method.startsWith("/") ? method : "/api/v1/" + method;
            ServiceApi.Answer answer = service.post(path, body.toString().getBytes(StandardCharsets.UTF_8), project,
                    key, Optional.empty());
            say("POST " + path + " -> HTTP " + answer.status());
            if (!answer.ok()) {
                throw new CliException(path + " answered HTTP " + answer.status() + " " + answer.errorCode() + ": "
                        + answer.json().path("error").path("description").asText(""));
            }
            return answer;
        }

        String init(String method, ObjectNode body) {
            String session = call(method, body).json().path("session").path("id").asText();
            sessions.add(session);
            say("session " + session);
            return session;
        }

        JsonNode confirmAndFinish(String session, String status) {
            await(session, "ready_to_confirm");
            call("session/confirm", sessionRef(session));
            return finish(session, status);
        }

        JsonNode confirmPayerAndFinish(String session, boolean approve, String status) {
            await(session, "ready_to_confirm");
            call("session/confirm", sessionRef(session));
            JsonNode action = await(session, "action_required");
            JsonNode interaction = action.at("/session/acquiring_payments/0/customer_interaction");
            String page = interaction.at("/redirect/url").asText("");
            if (page.isEmpty()) {
                page = interaction.at("/inform/qr/content").asText("");
            }
            if (page.isEmpty()) {
                throw new CliException("action_required carries no payer page");
            }
            answerPayerPage(page, approve);
            return finish(session, status);
        }

        JsonNode finish(String session, String status) {
            JsonNode finished = await(session, "payment_finished");
            JsonNode first = finished.at("/session/acquiring_payments/0");
            if (first.isMissingNode()) {
                first = finished.at("/session/payments/0");
            }
            String outcome = first.path("status").asText();
            say("the payment " + outcome + ", the session " + finished.at("/session/status").asText());
            if (!outcome.equals(status)) {
                throw new CliException("the payment ended " + outcome + ", not " + status);
            }
            return finished;
        }

        /** The payer's answer on the hosted page: a script posts without a body (README, "Try it by hand"). */
        private void answerPayerPage(String page, boolean approve) {
            String url = page + (approve ? "/approve" : "/decline");
            ServiceApi.Answer answer = service.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), url);
            say("the payer " + (approve ? "approves" : "declines") + " on " + page + " -> HTTP " + answer.status());
            if (answer.status() >= 400) {
                throw new CliException("the payer page answered HTTP " + answer.status());
            }
        }

        JsonNode await(String session, String type) {
            return awaitAny(session, type);
        }

        /** The first of {@code types} among the session's webhooks not yet seen, each new one printed on the way. */
        JsonNode awaitAny(String session, String... types) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                ObjectNode query = ServiceApi.JSON.createObjectNode().put("session_id", session)
                        .put("order", "oldest_first").put("with_body", true).put("limit", 100);
                ServiceApi.Answer answer = list(query);
                for (JsonNode notification : answer.json().path("notifications")) {
                    String id = notification.path("id").asText();
                    if (!seen.add(id)) {
                        continue;
                    }
                    String type = notification.path("type").asText();
                    received.add(type);
                    say("webhook " + type + " (" + notification.path("state").asText() + ")");
                    if (List.of(types).contains(type)) {
                        try {
                            return ServiceApi.JSON.readTree(notification.path("body").asText());
                        } catch (java.io.IOException e) {
                            throw new CliException("a webhook body that is not JSON: " + e.getMessage());
                        }
                    }
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CliException("interrupted");
                }
            }
            throw new CliException("no " + String.join(" or ", types) + " for " + session + " within "
                    + timeout.toSeconds() + " s");
        }

        /** The partner's own notifications, asked quietly (the webhooks found are what is printed). */
        private ServiceApi.Answer list(ObjectNode query) {
            ServiceApi.Answer answer = service.post("/api/v1/notification/list",
                    query.toString().getBytes(StandardCharsets.UTF_8), project, key, Optional.empty());
            if (!answer.ok()) {
                throw new CliException("notification/list answered HTTP " + answer.status() + " " + answer.errorCode());
            }
            return answer;
        }
    }
}
