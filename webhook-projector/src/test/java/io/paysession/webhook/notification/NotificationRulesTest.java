package io.paysession.webhook.notification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import io.paysession.webhook.testing.SampleSession;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class NotificationRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SampleSession session = new SampleSession(3230);

    @Test
    void readyToConfirmShowsThePaymentPendingAndTheSessionWaitingForConfirmation() throws Exception {
        JsonNode body = webhookOfLast(session.created(ApiVersion.V1), session.paymentStarted(), session.readyToConfirm());

        assertThat(body.path("type").asText()).isEqualTo("ready_to_confirm");
        JsonNode sessionNode = body.path("session");
        assertThat(sessionNode.path("id").asText()).isEqualTo("ps_3230");
        assertThat(sessionNode.path("status").asText()).isEqualTo("in_progress");
        assertThat(sessionNode.path("next_action").asText()).isEqualTo("confirm");
        JsonNode payment = sessionNode.path("acquiring_payments").path(0);
        assertThat(payment.path("id").asText()).isEqualTo("pm_3231");
        assertThat(payment.path("status").asText()).isEqualTo("pending");
        assertThat(payment.path("amount_details").path("amount").asLong()).isEqualTo(10_000);
        assertThat(payment.path("amount_details").path("currency").asText()).isEqualTo("rub");
    }

    @Test
    void paymentFinishedAfterASuccessShowsTheSessionAccepted() throws Exception {
        JsonNode body = webhookOfLast(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.succeeded());

        assertThat(body.path("type").asText()).isEqualTo("payment_finished");
        assertThat(body.path("session").path("status").asText()).isEqualTo("accepted");
        assertThat(body.path("session").has("next_action")).isFalse();
        assertThat(body.path("session").has("error")).isFalse();
        JsonNode payment = body.path("session").path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("succeeded");
        assertThat(payment.path("finished_at").asText()).endsWith("Z");
        assertThat(payment.path("transaction_info").path("rrn").asText()).isEqualTo("412345678901");
    }

    @Test
    void paymentFinishedAfterADeclineShowsTheSessionCancelledWithTheErrors() throws Exception {
        JsonNode body = webhookOfLast(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.declined());

        assertThat(body.path("type").asText()).isEqualTo("payment_finished");
        assertThat(body.path("session").path("status").asText()).isEqualTo("cancelled");
        assertThat(body.path("session").path("error").path("code").asText()).isEqualTo("session_cancelled");
        JsonNode payment = body.path("session").path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("failed");
        assertThat(payment.path("error").path("code").asText()).isEqualTo("declined_by_issuer_bank");
    }

    @Test
    void cancellingASessionWithNoPaymentSendsNothing() {
        assertThat(typeOfLast(session.created(ApiVersion.V1), session.cancelledByPartner())).isEmpty();
    }

    @Test
    void cancellingASessionWhosePaymentAwaitsConfirmationFinishesThePayment() throws Exception {
        JsonNode body = webhookOfLast(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.cancelledByPartner());

        assertThat(body.path("type").asText()).isEqualTo("payment_finished");
        assertThat(body.path("session").path("status").asText()).isEqualTo("cancelled");
        JsonNode payment = body.path("session").path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("failed");
        assertThat(payment.path("error").path("code").asText()).isEqualTo("session_cancelled_by_partner");
    }

    @Test
    void cancellingASessionWhosePaymentAlreadySucceededSendsNothing() {
        assertThat(typeOfLast(session.created(ApiVersion.V1), session.paymentStarted(), session.readyToConfirm(),
                session.confirmed(), session.succeeded(), session.cancelledByPartner())).isEmpty();
    }

    @Test
    void creatingStartingAndConfirmingSendNothing() {
        List<SessionEvent> events = List.of(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed());

        List<Optional<WebhookType>> types = transitions(events).stream()
                .map(step -> NotificationRules.typeFor(step.event(), step.before(), step.after()))
                .toList();

        assertThat(types).containsExactly(Optional.empty(), Optional.empty(),
                Optional.of(WebhookType.READY_TO_CONFIRM), Optional.empty());
        assertThat(NotificationRules.mayNotifyOn(session.paymentStarted())).isFalse();
    }

    @Test
    void aSessionCreatedThroughApiV1ListsItsPaymentsAsAcquiringPayments() throws Exception {
        JsonNode v1 = webhookOfLast(session.created(ApiVersion.V1), session.paymentStarted(), session.readyToConfirm());

        assertThat(v1.path("session").has("acquiring_payments")).isTrue();
        assertThat(v1.path("session").has("payment_list")).isFalse();
    }

    @Test
    void aSessionCreatedThroughApiV2ListsItsPaymentsAsPaymentList() throws Exception {
        JsonNode v2 = webhookOfLast(session.created(ApiVersion.V2), session.paymentStarted(), session.readyToConfirm());

        assertThat(v2.path("session").path("payment_list").path(0).path("status").asText()).isEqualTo("pending");
        assertThat(v2.path("session").has("acquiring_payments")).isFalse();
    }

    @Test
    void aWebhookBodyHoldsOnlyTypeAndSessionWithNoNullsAndNoCardSecrets() throws Exception {
        String body = bodyOfLast(session.created(ApiVersion.V1), session.paymentStarted(), session.readyToConfirm());

        JsonNode tree = JSON.readTree(body);
        List<String> fields = new ArrayList<>();
        tree.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("type", "session");
        assertThat(body).doesNotContain("null").doesNotContain(SampleSession.VAULT_TOKEN);
        assertThat(tree.path("session").path("acquiring_payments").path(0).path("payment_details").path("card")
                .path("last4").asText()).isEqualTo("4242");
    }

    private JsonNode webhookOfLast(SessionEvent... events) throws Exception {
        return JSON.readTree(bodyOfLast(events));
    }

    private String bodyOfLast(SessionEvent... events) {
        Transition last = transitions(List.of(events)).get(events.length - 1);
        WebhookType type = NotificationRules.typeFor(last.event(), last.before(), last.after())
                .orElseThrow(() -> new AssertionError("no webhook for " + last.event()));
        return WebhookBody.render(type, last.after());
    }

    private static SessionEvent[] concat(List<SessionEvent> events, SessionEvent last) {
        List<SessionEvent> all = new ArrayList<>(events);
        all.add(last);
        return all.toArray(SessionEvent[]::new);
    }

    private Optional<WebhookType> typeOfLast(SessionEvent... events) {
        Transition last = transitions(List.of(events)).get(events.length - 1);
        return NotificationRules.typeFor(last.event(), last.before(), last.after());
    }

    private record Transition(SessionEvent event, SessionView before, SessionView after) {
    }

    private static List<Transition> transitions(List<SessionEvent> events) {
        List<Transition> steps = new ArrayList<>();
        SessionView view = null;
        for (int sequence = 0; sequence < events.size(); sequence++) {
            SessionView after = SessionViewFold.apply(view, events.get(sequence), sequence);
            steps.add(new Transition(events.get(sequence), view, after));
            view = after;
        }
        return steps;
    }

    @Test
    void actionRequiredShowsThePayerInteractionAndTheConfirmation() throws Exception {
        JsonNode body = webhookOfLast(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.actionRequired());

        assertThat(body.path("type").asText()).isEqualTo("action_required");
        assertThat(body.path("session").path("actions").has("confirm")).isTrue();
        JsonNode payment = body.path("session").path("acquiring_payments").path(0);
        assertThat(payment.path("status").asText()).isEqualTo("pending");
        assertThat(payment.path("customer_interaction").path("redirect").path("url").asText())
                .isEqualTo("https://pay.example/sandbox/interactions/f00d");
    }

    @Test
    void readyToCaptureShowsTheHoldWaitingForCapture() throws Exception {
        JsonNode body = webhookOfLast(session.created(ApiVersion.V2), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.held());

        assertThat(body.path("type").asText()).isEqualTo("ready_to_capture");
        assertThat(body.path("session").path("next_action").asText()).isEqualTo("capture");
        assertThat(body.path("session").path("payment_list").path(0).path("status").asText()).isEqualTo("pending");
    }

    @Test
    void paymentRefundedFollowsTheEndOfEachRefundButNotItsRequest() throws Exception {
        List<SessionEvent> before = new ArrayList<>(List.of(session.created(ApiVersion.V1), session.paymentStarted(),
                session.readyToConfirm(), session.confirmed(), session.succeeded()));
        before.add(session.refundRequested("rf_1", 4000));
        assertThat(typeOfLast(before.toArray(SessionEvent[]::new))).isEmpty();

        JsonNode accepted = webhookOfLast(concat(before, session.refundAccepted("rf_1")));
        assertThat(accepted.path("type").asText()).isEqualTo("payment_refunded");
        assertThat(accepted.path("session").path("status").asText()).isEqualTo("accepted");
        JsonNode refund = accepted.path("session").path("acquiring_payments").path(0).path("refunds").path(0);
        assertThat(refund.path("status").asText()).isEqualTo("accepted");
        assertThat(refund.has("finished_at")).isTrue();

        assertThat(webhookOfLast(concat(before, session.refundDeclined("rf_1"))).path("session")
                .path("acquiring_payments").path(0).path("refunds").path(0).path("status").asText()).isEqualTo("declined");
    }
}
