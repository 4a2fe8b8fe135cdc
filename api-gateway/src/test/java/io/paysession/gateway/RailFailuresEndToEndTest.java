package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.FaultyRails;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Money moves once per operation, whatever the rail does (issue 15). The service runs as its own JVM with
 * its sandbox rails behind {@link FaultyRails}: a rail that answers later than {@code payments.rails.answer-timeout},
 * one whose answer fails after it did the operation, and one that never answers, so that the JVM is killed
 * between the rail's work and its recording. For each authorization, capture, refund and payout the rail is
 * called exactly once per operation id (counted in a file outside the JVM), the session ends as the rail
 * decided, and it got there by the rail's query.
 */
class RailFailuresEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Path dataDirectory = TestServiceProperties.newDataDirectory("payments-rail-failures");
    private ServiceProcess service;
    private TestPartner partner;
    /** Every money-moving operation the test made: kind and id, as the rail log names them. */
    private final List<String> operations = new ArrayList<>();

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void aRailThatAnswersTooLateOrFailsIsAskedAboutTheOperationAndNeverCalledAgain() {
        start(Map.of("payments.rails.answer-timeout", "2s", "payments.test.faulty-rails.slow-by", "4s"));

        // amounts ending in 91: the answer comes after the time-out; in 92: the answer fails after the work
        String first = paymentConfirmed(10_091);
        awaitNextAction(first, "capture");
        capture(first, 10_091);
        awaitSessionStatus(first, "accepted");
        refundAccepted(first, 2_092, 0);
        refundAccepted(first, 1_091, 1);

        String second = paymentConfirmed(20_092);
        awaitNextAction(second, "capture");
        capture(second, 15_092);
        awaitSessionStatus(second, "accepted");
        refundAccepted(second, 5_091, 0);

        String slowPayout = payoutConfirmed(30_091);
        String failedPayout = payoutConfirmed(30_092);
        awaitSessionStatus(slowPayout, "accepted");
        awaitSessionStatus(failedPayout, "accepted");

        assertEveryOperationCalledOnceAndResolvedByItsQuery();
        for (String session : List.of(first, second)) {
            assertThat(eventTypes(session)).as(session)
                    .contains("PaymentOutcomeUnknownEvent", "PaymentOutcomeQueryRequestedEvent",
                            "PaymentCaptureOutcomeUnknownEvent", "PaymentCaptureQueryRequestedEvent",
                            "RefundOutcomeUnknownEvent", "RefundOutcomeQueryRequestedEvent")
                    .containsOnlyOnce("PaymentAuthorizedEvent", "PaymentSucceededEvent");
        }
        assertThat(eventTypes(first)).filteredOn("RefundAcceptedEvent"::equals).hasSize(2);
        for (String payout : List.of(slowPayout, failedPayout)) {
            assertThat(eventTypes(payout)).as(payout)
                    .contains("PayoutOutcomeUnknownEvent", "PayoutOutcomeQueryRequestedEvent")
                    .containsOnlyOnce("PayoutSucceededEvent");
        }
    }

    @Test
    void aProcessKilledBetweenTheRailsWorkAndItsRecordingAsksTheRailAfterTheRestartAndNeverCallsAgain() {
        // the default answer time-out (60 s): the JVM is killed long before it would turn the silence into unknown
        start(Map.of());

        // amounts ending in 93: the rail does the operation and its answer never comes
        String payment = paymentConfirmed(10_093);
        String payout = payoutConfirmed(20_093);
        awaitRailDone("authorize " + paymentId(payment));
        awaitRailDone("payout " + payoutId(payout));
        killAndRestart();
        awaitNextAction(payment, "capture");
        awaitSessionStatus(payout, "accepted");

        capture(payment, 10_093);
        awaitRailDone("capture " + paymentId(payment));
        killAndRestart();
        awaitSessionStatus(payment, "accepted");

        String refund = refund(payment, 4_093);
        awaitRailDone("refund " + refund);
        killAndRestart();
        awaitRefundStatus(payment, 0, "accepted");

        assertEveryOperationCalledOnceAndResolvedByItsQuery();
        assertThat(eventTypes(payment)).containsOnlyOnce("PaymentAuthorizedEvent", "PaymentSucceededEvent",
                "RefundAcceptedEvent");
        assertThat(eventTypes(payout)).containsOnlyOnce("PayoutSucceededEvent");
    }

    private void assertEveryOperationCalledOnceAndResolvedByItsQuery() {
        List<String> calls = FaultyRails.calls(dataDirectory);
        assertThat(operations).hasSize(operations.stream().distinct().toList().size()).isNotEmpty();
        for (String operation : operations) {
            assertThat(calls).as("calls of " + operation + " in " + calls)
                    .filteredOn((operation + " call")::equals).hasSize(1);
            assertThat(calls).as("queries of " + operation + " in " + calls)
                    .filteredOn((operation + " query")::equals).isNotEmpty();
        }
    }

    private void start(Map<String, Object> overrides) {
        Map<String, Object> properties = new LinkedHashMap<>(overrides);
        properties.put("payments.test.faulty-rails", "true");
        // a held payment waits for its capture across the restarts
        properties.put("payments.limits.capture", "10m");
        service = new ServiceProcess(dataDirectory, properties);
        service.start();
        ServiceClient client = new ServiceClient(service.baseUrl());
        partner = new TestPartner("rail-failures").at(service.baseUrl());
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                // nobody listens: webhooks are not what this test watches
                .put("webhook_url", WebhookReceiver.url(WebhookReceiver.freePort(), partner.project()))
                .put("capture_mode", "delayed");
        Answer registered = client.admin("POST", "/admin/v1/partners", body.toString(), TestServiceProperties.ADMIN_TOKEN);
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
    }

    private void killAndRestart() {
        service.kill();
        service.start();
        partner.at(service.baseUrl());
    }

    private String paymentConfirmed(long amount) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_details").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242").put("expiration_month", "12")
                .put("expiration_year", "34").put("security_code", "123");
        body.putObject("amount_details").put("amount", amount).put("currency", "RUB");
        body.putObject("customer").put("reference", "customer-15");
        String session = confirmed("/api/v1/session/init/payment", body);
        operations.add("authorize " + paymentId(session));
        return session;
    }

    private String payoutConfirmed(long amount) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("payment_method").put("type", "card").putObject("card").put("type", "bank_card")
                .putObject("bank_card").put("number", "4242424242424242");
        body.putObject("amount_details").put("amount", amount).put("currency", "rub");
        body.putObject("participant_details").putObject("recipient").put("full_name", "John Doe");
        String session = confirmed("/api/v1/session/init/payout", body);
        operations.add("payout " + payoutId(session));
        return session;
    }

    private String confirmed(String initPath, ObjectNode body) {
        Answer init = partner.post(initPath, body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String session = init.session().path("id").asText();
        awaitNextAction(session, "confirm");
        ServiceClient.confirm(partner, session);
        return session;
    }

    private void capture(String session, long amount) {
        ObjectNode capture = ServiceClient.sessionRef(session);
        capture.putObject("amount_details").put("amount", amount).put("currency", "rub");
        Answer captured = partner.post("/api/v1/session/capture", capture);
        assertThat(captured.status()).as(captured.toString()).isEqualTo(200);
        operations.add("capture " + paymentId(session));
    }

    /** Requests a refund of {@code amount}; its id. */
    private String refund(String session, long amount) {
        ObjectNode refund = ServiceClient.sessionRef(session);
        refund.putObject("amount_details").put("amount", amount).put("currency", "rub");
        Answer answer = partner.post("/api/v1/session/refund", refund);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        JsonNode refunds = answer.session().path("acquiring_payments").path(0).path("refunds");
        String id = refunds.path(refunds.size() - 1).path("id").asText();
        assertThat(id).matches("rf_\\d+");
        operations.add("refund " + id);
        return id;
    }

    private void refundAccepted(String session, long amount, int index) {
        refund(session, amount);
        awaitRefundStatus(session, index, "accepted");
    }

    private JsonNode status(String session) {
        Answer status = partner.post("/api/v1/session/status", ServiceClient.sessionRef(session));
        assertThat(status.status()).as(status.toString()).isEqualTo(200);
        return status.session();
    }

    private void awaitNextAction(String session, String action) {
        awaitSession(session, view -> action.equals(view.path("next_action").asText()), "next_action " + action);
    }

    private void awaitSessionStatus(String session, String wanted) {
        awaitSession(session, view -> wanted.equals(view.path("status").asText()), "status " + wanted);
    }

    private void awaitRefundStatus(String session, int index, String wanted) {
        awaitSession(session, view -> wanted.equals(view.path("acquiring_payments").path(0).path("refunds")
                .path(index).path("status").asText()), "refund " + index + " " + wanted);
    }

    private void awaitSession(String session, Predicate<JsonNode> condition, String what) {
        try {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> condition.test(status(session)));
        } catch (RuntimeException e) {
            throw new AssertionError(session + " never reached " + what + ": " + status(session) + "\nrail calls: "
                    + FaultyRails.calls(dataDirectory) + "\n" + service.outputTail(40), e);
        }
    }

    private void awaitRailDone(String operation) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> FaultyRails.calls(dataDirectory).contains(operation + " done"));
    }

    private String paymentId(String session) {
        return status(session).path("acquiring_payments").path(0).path("id").asText();
    }

    private String payoutId(String session) {
        return status(session).path("payments").path(0).path("id").asText();
    }

    private List<String> eventTypes(String session) {
        Answer history = new ServiceClient(service.baseUrl()).admin("GET", "/admin/v1/sessions/" + session + "/events");
        assertThat(history.status()).as(history.toString()).isEqualTo(200);
        List<String> types = new ArrayList<>();
        history.body().path("events").forEach(event -> types.add(event.path("type").asText()));
        return types;
    }
}
