package io.paysession.command.process;

import io.paysession.api.money.Money;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.SessionId;
import io.paysession.command.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The balance held against payouts, on PostgreSQL. The balance is what the settlement projection has settled: its
 * tables and the event store's are the query side's and Axon's, so this test makes stand-ins with the columns the holds
 * read (the end-to-end test runs them on the real ones).
 */
class JdbcWalletHoldsTest {

    private final DataSource dataSource = TestDatabase.dataSource();
    private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    private final JdbcWalletHolds holds = new JdbcWalletHolds(jdbc, Clock.systemUTC());
    private final String project = "shop-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void standIns() {
        jdbc.execute("create table if not exists settlement_entry (project varchar(64), currency varchar(3), net bigint)");
        jdbc.execute("create table if not exists settlement_position (id int primary key, global_index bigint)");
        jdbc.update("insert into settlement_position (id, global_index) values (1, 0) on conflict (id) do nothing");
        settle(10_000);
    }

    private void settle(long net) {
        jdbc.update("insert into settlement_entry (project, currency, net) values (?, 'rub', ?)", project, net);
    }

    private boolean hold(String payout, long amount) {
        return Boolean.TRUE.equals(transaction.execute(status -> holds.hold(project, SessionId.of("ps_" + payout.substring(3)),
                PayoutId.of(payout), Money.of(amount, "rub"))));
    }

    @Test
    void aPayoutIsHeldOnlyWhenTheBalanceLessTheHoldsCoversItAndAReleasedHoldFreesItsAmount() {
        assertThat(hold("po_1", 6_000)).isTrue();
        assertThat(hold("po_2", 5_000)).as("4 000 left").isFalse();
        assertThat(hold("po_1", 6_000)).as("the same payout again: still held, not twice").isTrue();
        transaction.executeWithoutResult(status -> holds.release(PayoutId.of("po_1")));
        assertThat(hold("po_2", 5_000)).isTrue();
        assertThat(hold("po_3", 5_000)).isTrue();
        assertThat(hold("po_4", 1)).as("all of it held").isFalse();
    }

    @Test
    void aSucceededPayoutsHoldCountsUntilItsSettlementEntryIsInTheBalanceThenNotTwice() {
        assertThat(hold("po_5", 6_000)).isTrue();
        transaction.executeWithoutResult(status -> holds.settledAt(PayoutId.of("po_5"), 9));
        assertThat(hold("po_6", 4_001)).as("settlement not past it yet: the hold counts").isFalse();

        settle(-6_000);
        jdbc.update("update settlement_position set global_index = 9 where id = 1");
        assertThat(hold("po_6", 4_000)).as("its entry is in the net now, and its hold is not counted too").isTrue();
        assertThat(jdbc.queryForObject("select count(*) from wallet_hold where payout_id = 'po_5'", Integer.class))
                .isZero();
    }

    @Test
    void twoPayoutsRacingForTheLastOfTheBalanceAreDecidedOneAfterTheOther() throws Exception {
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch commitFirst = new CountDownLatch(1);
        CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
            boolean held = holds.hold(project, SessionId.of("ps_7"), PayoutId.of("po_7"), Money.of(8_000, "rub"));
            firstHeld.countDown();
            try {
                commitFirst.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return held;
        }));
        assertThat(firstHeld.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> second = CompletableFuture.supplyAsync(() -> hold("po_8", 8_000));
        Thread.sleep(300);
        assertThat(second).as("the second waits while the first's hold is not committed").isNotDone();

        commitFirst.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get(10, TimeUnit.SECONDS)).as("it then sees the first's hold: 2 000 left").isFalse();
    }
}
