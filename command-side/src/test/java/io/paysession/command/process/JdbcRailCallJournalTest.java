package io.paysession.command.process;

import io.paysession.api.session.SessionId;
import io.paysession.command.TestDatabase;
import io.paysession.command.process.RailCallJournal.Kind;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rail-call journal on PostgreSQL: the first ask per (kind, operation id) is granted, every later one
 * refused, also when several ask at once; and the record commits with the transaction of the event's handling,
 * after which the call starts (RailCalls), so that a rollback takes back only a call that was never made.
 */
class JdbcRailCallJournalTest {

    private static final AtomicLong IDS = new AtomicLong(System.nanoTime() % 1_000_000_000L);

    private final DataSource dataSource = TestDatabase.dataSource();
    private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    private final DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
    private final JdbcRailCallJournal journal = new JdbcRailCallJournal(jdbc, transactions, Clock.systemUTC());
    private final SessionId session = SessionId.of(IDS.incrementAndGet());

    @Test
    void theFirstCallOfAnOperationIsGrantedAndNoLaterOne() {
        String payment = "pm_" + IDS.incrementAndGet();
        assertThat(journal.firstCall(Kind.AUTHORIZE, payment, session)).isTrue();
        assertThat(journal.firstCall(Kind.AUTHORIZE, payment, session)).isFalse();
        assertThat(journal.firstCall(Kind.CAPTURE, payment, session)).as("the capture of the same payment").isTrue();
        assertThat(journal.firstCall(Kind.CAPTURE, payment, session)).isFalse();
    }

    @Test
    void theRecordCommitsWithTheEventsHandlingAndGoesWithItsRollbackBeforeTheCallWasMade() {
        String refund = "rf_" + IDS.incrementAndGet();
        TransactionTemplate eventHandling = new TransactionTemplate(transactions);
        eventHandling.executeWithoutResult(status -> {
            assertThat(journal.firstCall(Kind.REFUND, refund, session)).isTrue();
            // the handling failed before its commit: the call, which starts only after the commit, was not made
            status.setRollbackOnly();
        });
        assertThat(count(refund)).as("no record of a call never made").isZero();

        eventHandling.executeWithoutResult(status ->
                assertThat(journal.firstCall(Kind.REFUND, refund, session)).as("handled again").isTrue());
        assertThat(journal.firstCall(Kind.REFUND, refund, session)).as("after the commit, the call may start")
                .isFalse();
        assertThat(jdbc.queryForObject("select session_id from rail_call where kind = 'refund' and operation_id = ?",
                String.class, refund)).isEqualTo(session.value());
    }

    private int count(String operation) {
        return jdbc.queryForObject("select count(*) from rail_call where operation_id = ?", Integer.class, operation);
    }

    @Test
    void ofManyAskingAtOnceExactlyOneIsGranted() throws Exception {
        String payout = "po_" + IDS.incrementAndGet();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Boolean>> asks = IntStream.range(0, 8)
                    .<Callable<Boolean>>mapToObj(i -> () -> journal.firstCall(Kind.PAYOUT, payout, session)).toList();
            List<Boolean> granted = pool.invokeAll(asks).stream().map(JdbcRailCallJournalTest::get).toList();
            assertThat(granted).containsOnlyOnce(true).hasSize(8);
        } finally {
            pool.shutdownNow();
        }
    }

    private static Boolean get(Future<Boolean> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
