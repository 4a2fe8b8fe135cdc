package io.paysession.command.process;

import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.SessionId;
import io.paysession.command.TestDatabase;
import io.paysession.command.rails.PaymentRails;
import io.paysession.command.rails.StubRails;
import io.paysession.command.rails.StubRails.Call;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The calls in flight on PostgreSQL, as the processes and the recovery use them: a call starts only after the
 * transaction that records it commits, and not at all when it rolls back; a live node's calls are left to it until
 * they are due; a dead node's, or one that stopped, are taken over at once; a call given back is due after its
 * delay; and two nodes looking at once never take the same call.
 */
class JdbcRailCallsInFlightTest {

    private static final AtomicLong IDS = new AtomicLong(System.nanoTime() % 1_000_000_000L);
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

    private final DataSource dataSource = TestDatabase.dataSource();
    private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    private final DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
    private final TransactionTemplate transaction = new TransactionTemplate(transactions);
    private final JdbcRailCallsInFlight node = node();
    private final JdbcRailCallsInFlight other = node();

    @BeforeEach
    void onlyThisTestsCalls() {
        jdbc.update("delete from rail_call_in_flight");
        node.beat();
        other.beat();
    }

    @AfterEach
    void stop() {
        node.leave();
        other.leave();
    }

    @Test
    void aLiveNodesCallIsLeftToItUntilItIsDueAndAGivenBackCallIsDueAfterItsDelay() {
        String event = started(node);

        assertThat(claim(other)).as("its owner is alive, its answer may still come").isEmpty();

        transaction.executeWithoutResult(status -> node.retryAfter(event, Duration.ZERO));
        assertThat(claim(other)).contains(event);
        assertThat(node.attempts(event)).isEqualTo(1);

        node.answered(event);
        assertThat(claim(other)).as("answered: nothing to take over").isEmpty();
    }

    @Test
    void theCallsOfANodeThatStoppedAreTakenOverAtOnce() {
        String event = started(node);
        node.leave();

        assertThat(claim(other)).contains(event);
    }

    @Test
    void theCallsOfANodeWhoseHeartbeatStoppedAreTakenOverAfterTheNodeTimeOut() {
        JdbcRailCallsInFlight silent = new JdbcRailCallsInFlight(jdbc, Clock.systemUTC(), ANSWER_TIMEOUT,
                Duration.ofSeconds(30), Duration.ofMillis(300));
        silent.beat();
        String event = started(silent);
        JdbcRailCallsInFlight watcher = new JdbcRailCallsInFlight(jdbc, Clock.systemUTC(), ANSWER_TIMEOUT,
                Duration.ofSeconds(30), Duration.ofMillis(300));
        watcher.beat();
        assertThat(claim(watcher)).as("it beat a moment ago").isEmpty();

        sleep(Duration.ofMillis(600)); // no heartbeat since: the node died
        watcher.beat();

        assertThat(claim(watcher)).contains(event);
        silent.leave();
        watcher.leave();
    }

    @Test
    void twoNodesLookingAtOnceNeverTakeTheSameCall() throws Exception {
        String first = started(node);
        String second = started(node);
        node.leave();
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch secondTaken = new CountDownLatch(1);
        CompletableFuture<Optional<String>> holder = CompletableFuture.supplyAsync(() ->
                transaction.execute(status -> {
                    Optional<String> taken = other.claimDue().map(RailCallsInFlight.Due::eventId);
                    firstHeld.countDown();
                    await(secondTaken);
                    return taken;
                }));
        await(firstHeld);
        Optional<String> meanwhile = claim(node);
        secondTaken.countDown();

        assertThat(List.of(holder.get(10, TimeUnit.SECONDS).orElseThrow(), meanwhile.orElseThrow()))
                .containsExactlyInAnyOrder(first, second);
    }

    @Test
    void aCallStartsOnlyAfterTheTransactionThatRecordsItCommitsAndNotAtAllWhenItRollsBack() {
        StubRails rail = new StubRails();
        try (RecordingCommands commands = new RecordingCommands()) {
            RailCalls calls = new RailCalls(node, commands.sender(), ANSWER_TIMEOUT);
            JdbcRailCallJournal journal = new JdbcRailCallJournal(jdbc, transactions, Clock.systemUTC());
            EventDelivery events = new EventDelivery("shop", new PaymentProcess(new PaymentRails(List.of(rail)),
                    commands.sender(), calls, new MoneyMovingCalls(journal, calls)));
            PaymentConfirmedEvent rolledBack = confirmed();
            PaymentConfirmedEvent committed = confirmed();

            transaction.executeWithoutResult(status -> {
                events.start(rolledBack);
                status.setRollbackOnly(); // the processor's transaction fails: the event will be handled again
            });
            assertThat(rail.received()).as("no call for a handling that rolled back").isEmpty();
            assertThat(count("select count(*) from rail_call_in_flight")).isZero();

            CompletableFuture<?>[] handled = new CompletableFuture<?>[1];
            transaction.executeWithoutResult(status -> {
                handled[0] = events.start(committed);
                assertThat(rail.received()).as("not before the commit").isEmpty();
                assertThat(count("select count(*) from rail_call_in_flight where event_id = ?",
                        events.idOf(committed))).as("in flight, in the same transaction").isEqualTo(1);
            });
            EventDelivery.join(handled[0]);

            assertThat(rail.callsFor(committed.paymentId().value())).containsExactly(Call.AUTHORIZE);
            assertThat(commands.sent()).containsExactly(new RecordPaymentAuthorizationCommand(committed.sessionId(),
                    committed.paymentId(), StubRails.approved()));
        }
    }

    private String started(JdbcRailCallsInFlight owner) {
        String event = "ev-" + IDS.incrementAndGet();
        transaction.executeWithoutResult(status -> owner.started(event, SessionId.of(IDS.incrementAndGet())));
        return event;
    }

    private Optional<String> claim(JdbcRailCallsInFlight by) {
        return transaction.execute(status -> by.claimDue().map(RailCallsInFlight.Due::eventId));
    }

    private int count(String sql, Object... arguments) {
        return jdbc.queryForObject(sql, Integer.class, arguments);
    }

    private JdbcRailCallsInFlight node() {
        return new JdbcRailCallsInFlight(jdbc, Clock.systemUTC(), ANSWER_TIMEOUT, Duration.ofSeconds(30),
                Duration.ofSeconds(10));
    }

    private static PaymentConfirmedEvent confirmed() {
        long id = IDS.incrementAndGet();
        return new PaymentConfirmedEvent(SessionId.of(id), PaymentId.of(id), new RailOrder(
                new CardMethod("card_" + "3".repeat(32), "visa", "424242", "4242"), Money.of(5_000, "rub"),
                CaptureMode.AUTO, null), Instant.parse("2026-11-25T10:00:00Z"));
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
