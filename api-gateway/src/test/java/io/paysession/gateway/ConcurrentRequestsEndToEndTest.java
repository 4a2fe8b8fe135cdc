package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionId;
import io.paysession.command.ids.IdGenerator;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.TestPartner;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two requests on one session at the same moment, started together by a latch, many rounds each: exactly one
 * wins, the other is refused with the code a serialized order gives, nothing is a 5xx, and the session
 * (its status and its event stream) shows the winner's outcome only. A last test plays the race with another
 * node, whose append reaches the event store between this node's read of the session and its own append.
 */
class ConcurrentRequestsEndToEndTest extends EndToEndTestBase {

    private static final AtomicInteger ORDERS = new AtomicInteger();

    private static final int ROUNDS = 40;
    private static final int BATCH = 10;

    private final ExecutorService racers = Executors.newFixedThreadPool(2);

    @Autowired
    private JdbcTemplate jdbc;
    @Autowired
    private EventStore eventStore;
    @Autowired
    private TransactionManager transactionManager;
    @Autowired
    private IdGenerator ids;

    @AfterEach
    void stopRacers() {
        racers.shutdownNow();
    }

    /** The two answers of one round, in the order the requests were given. */
    private record Race(Answer first, Answer second) {
        List<Answer> both() {
            return List.of(first, second);
        }
    }

    @Test
    void confirmAndCancelRacingOnOneSessionEndWithExactlyOneWinner() {
        TestPartner partner = registeredPartner("race-confirm");
        int confirmsWon = 0;
        for (int batch = 0; batch < ROUNDS / BATCH; batch++) {
            for (String sessionId : readyToConfirm(partner, BATCH)) {
                Race race = race(() -> partner.post("/api/v1/session/confirm", sessionRef(sessionId)),
                        () -> partner.post("/api/v1/session/cancel", sessionRef(sessionId)));
                Answer loser = assertOneWinner(race, "session_wrong_state");
                boolean confirmWon = race.first().status() == 200;
                confirmsWon += confirmWon ? 1 : 0;
                assertThat(loser.errorCode()).isEqualTo("session_wrong_state");

                List<String> confirmEvents = List.of("PaymentConfirmedEvent", "PaymentSucceededEvent");
                List<String> cancelEvents = List.of("SessionCancelledEvent");
                JsonNode finished = confirmWon ? settled(partner, sessionId, confirmEvents, cancelEvents)
                        : settled(partner, sessionId, cancelEvents, confirmEvents);
                assertThat(finished.path("status").asText()).isEqualTo(confirmWon ? "accepted" : "cancelled");
                if (!confirmWon) {
                    assertThat(finished.path("error").path("code").asText()).isEqualTo("session_cancelled_by_partner");
                }
            }
        }
        System.out.println("confirm vs cancel: confirm won " + confirmsWon + " of " + ROUNDS);
    }

    @Test
    void twoRefundsWhoseSumExceedsTheCapturedAmountAreNeverBothAccepted() {
        TestPartner partner = registeredPartner("race-refund");
        for (int batch = 0; batch < ROUNDS / BATCH; batch++) {
            List<String> sessions = readyToConfirm(partner, BATCH);
            sessions.forEach(sessionId -> assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId))
                    .status()).isEqualTo(200));
            for (String sessionId : sessions) {
                WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
                // two refunds of their own: an identical signed refund body would be refused as a replay first
                Race race = race(() -> partner.post("/api/v1/session/refund", refund(sessionId, 6000)),
                        () -> partner.post("/api/v1/session/refund", refund(sessionId, 6000).put("metadata", "other")));
                Answer loser = assertOneWinner(race, "refund_amount_too_large");
                assertThat(loser.errorCode()).isEqualTo("refund_amount_too_large");

                assertThat(eventTypes(sessionId)).filteredOn("RefundRequestedEvent"::equals).hasSize(1);
                JsonNode refunds = status(partner, sessionId).path("acquiring_payments").path(0).path("refunds");
                assertThat(refunds).hasSize(1);
                assertThat(refunds.path(0).path("amount_details").path("amount").asLong()).isEqualTo(6000);
            }
        }
    }

    @Test
    void captureAndCancelRacingOnAHeldPaymentEndWithExactlyOneWinner() {
        TestPartner partner = registeredPartner("race-capture", "delayed");
        int capturesWon = 0;
        // one at a time: the tests' capture time limit is a few seconds
        for (int round = 0; round < ROUNDS; round++) {
            String sessionId = readyToConfirm(partner, 1).get(0);
            assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
            WEBHOOKS.await(sessionId, "ready_to_capture", WEBHOOK_WAIT);
            Race race = race(() -> partner.post("/api/v1/session/capture", sessionRef(sessionId)),
                    () -> partner.post("/api/v1/session/cancel", sessionRef(sessionId)));
            Answer loser = assertOneWinner(race, "session_wrong_state");
            assertThat(loser.errorCode()).isEqualTo("session_wrong_state");
            boolean captureWon = race.first().status() == 200;
            capturesWon += captureWon ? 1 : 0;

            List<String> captureEvents = List.of("PaymentCaptureRequestedEvent", "PaymentSucceededEvent");
            List<String> cancelEvents = List.of("PaymentHoldReleasedEvent", "SessionCancelledEvent");
            JsonNode finished = captureWon ? settled(partner, sessionId, captureEvents, cancelEvents)
                    : settled(partner, sessionId, cancelEvents, captureEvents);
            assertThat(finished.path("status").asText()).isEqualTo(captureWon ? "accepted" : "cancelled");
        }
        System.out.println("capture vs cancel: capture won " + capturesWon + " of " + ROUNDS);
    }

    /**
     * Another node cancels the session and holds its transaction open with the event appended; this node's
     * confirm, which read the session before that append, blocks on the event store's unique key; the other
     * node commits. The confirm must then be judged on the cancelled session, as if it had come second.
     */
    @Test
    void aConfirmThatLosesTheRaceToAnotherNodesCancelIsRefusedAsComingSecond() {
        TestPartner partner = registeredPartner("race-nodes");
        String sessionId = readyToConfirm(partner, 1).get(0);

        Answer answer = afterAnotherNodeAppends(sessionId, new SessionCancelledEvent(SessionId.of(sessionId),
                        ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, "The session was cancelled by the partner"),
                        Instant.now()),
                () -> partner.post("/api/v1/session/confirm", sessionRef(sessionId)));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo("session_wrong_state");
        assertThat(eventTypes(sessionId)).endsWith("SessionCancelledEvent").doesNotContain("PaymentConfirmedEvent");
        assertThat(status(partner, sessionId).path("status").asText()).isEqualTo("cancelled");
    }

    /** The same race between two refunds that both fit: the second is made on top of the first, not refused. */
    @Test
    void aRefundThatLosesTheRaceToAnotherNodesRefundIsStillMadeWhenBothFit() {
        TestPartner partner = registeredPartner("race-nodes-refund");
        String sessionId = readyToConfirm(partner, 1).get(0);
        assertThat(partner.post("/api/v1/session/confirm", sessionRef(sessionId)).status()).isEqualTo(200);
        WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT);
        PaymentConfirmedEvent confirmed = eventStore.readEvents(sessionId).asStream()
                .map(message -> message.getPayload()).filter(PaymentConfirmedEvent.class::isInstance)
                .map(PaymentConfirmedEvent.class::cast).findFirst().orElseThrow();
        RefundId otherNodesRefund = ids.nextRefundId();

        Answer answer = afterAnotherNodeAppends(sessionId, new RefundRequestedEvent(SessionId.of(sessionId),
                        confirmed.paymentId(), otherNodesRefund, confirmed.order(), Money.of(3000, "rub"), null,
                        Instant.now()),
                () -> partner.post("/api/v1/session/refund", refund(sessionId, 3000)));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        JsonNode refunds = answer.session().path("acquiring_payments").path(0).path("refunds");
        assertThat(refunds).extracting(refund -> refund.path("id").asText()).hasSize(2).contains(otherNodesRefund.value());
        assertThat(eventTypes(sessionId)).filteredOn("RefundRequestedEvent"::equals).hasSize(2);
        assertThat(partner.post("/api/v1/session/refund", refund(sessionId, 4001)).errorCode())
                .as("6000 of 10000 are refunded or in progress").isEqualTo("refund_amount_too_large");
    }

    /**
     * Plays another node: it appends {@code event} as the session's next event and keeps its transaction open;
     * meanwhile this node handles {@code request}, which reads the session without that event and blocks on the
     * event store's unique key when it appends; then the other node commits. Returns this node's answer.
     */
    private Answer afterAnotherNodeAppends(String sessionId, Object event, Supplier<Answer> request) {
        long lastSequence = jdbc.queryForObject(
                "select max(sequence_number) from domain_event_entry where aggregate_identifier = ?", Long.class, sessionId);
        CountDownLatch appended = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        CompletableFuture<Void> otherNode = CompletableFuture.runAsync(() -> {
            UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
            unitOfWork.attachTransaction(transactionManager);
            unitOfWork.execute(() -> {
                eventStore.publish(new GenericDomainEventMessage<>("Session", sessionId, lastSequence + 1, event));
                // runs after the event store's own prepare-commit step: the row is written, not committed
                CurrentUnitOfWork.get().onPrepareCommit(done -> {
                    appended.countDown();
                    awaitLatch(commit);
                });
            });
        }, racers);
        awaitLatch(appended);
        CompletableFuture<Answer> thisNode = CompletableFuture.supplyAsync(request, racers);
        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.queryForObject(
                "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() "
                        + "and query ilike 'insert into domain_event_entry%'",
                Integer.class) > 0);
        commit.countDown();
        otherNode.join();
        return thisNode.join();
    }

    private Race race(Supplier<Answer> first, Supplier<Answer> second) {
        CountDownLatch start = new CountDownLatch(1);
        CompletableFuture<Answer> one = CompletableFuture.supplyAsync(() -> {
            awaitLatch(start);
            return first.get();
        }, racers);
        CompletableFuture<Answer> two = CompletableFuture.supplyAsync(() -> {
            awaitLatch(start);
            return second.get();
        }, racers);
        start.countDown();
        return new Race(one.join(), two.join());
    }

    /** Exactly one 200; the other a 400; no 5xx. Returns the loser. */
    private static Answer assertOneWinner(Race race, String expectedCode) {
        assertThat(race.both()).as("no server error").allSatisfy(answer -> assertThat(answer.status()).isLessThan(500));
        assertThat(race.both()).as("exactly one winner, the other refused with " + expectedCode)
                .extracting(Answer::status).containsExactlyInAnyOrder(200, 400);
        return race.first().status() == 200 ? race.second() : race.first();
    }

    /**
     * Once the operation has ended: the stream holds the winner's events and none of the loser's, and the
     * session's status is what {@code payment_finished} said. Returns that session.
     */
    private JsonNode settled(TestPartner partner, String sessionId, List<String> winners, List<String> losers) {
        JsonNode finished = WEBHOOKS.await(sessionId, "payment_finished", WEBHOOK_WAIT).session();
        assertThat(eventTypes(sessionId)).containsAll(winners).doesNotContainAnyElementsOf(losers);
        assertThat(status(partner, sessionId)).isEqualTo(finished);
        return finished;
    }

    private List<String> readyToConfirm(TestPartner partner, int count) {
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // each payment a body of its own, as a partner's order reference makes it
            Answer init = partner.post("/api/v1/session/init/payment", cardPayment("4242424242424242", "123")
                    .put("metadata", "order " + ORDERS.incrementAndGet()));
            assertThat(init.status()).as(init.toString()).isEqualTo(200);
            sessions.add(init.session().path("id").asText());
        }
        sessions.forEach(sessionId -> WEBHOOKS.await(sessionId, "ready_to_confirm", WEBHOOK_WAIT));
        return sessions;
    }

    private static ObjectNode refund(String sessionId, long amount) {
        ObjectNode body = sessionRef(sessionId);
        body.putObject("amount_details").put("amount", amount).put("currency", "rub");
        return body;
    }

    private JsonNode status(TestPartner partner, String sessionId) {
        Answer status = partner.post("/api/v1/session/status", sessionRef(sessionId));
        assertThat(status.status()).as(status.toString()).isEqualTo(200);
        return status.session();
    }

    private List<String> eventTypes(String sessionId) {
        return jdbc.queryForList("select payload_type from domain_event_entry where aggregate_identifier = ? "
                + "order by sequence_number", String.class, sessionId).stream()
                .map(type -> type.substring(type.lastIndexOf('.') + 1)).toList();
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
