package io.paysession.command.process;

import io.paysession.api.session.SessionId;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Clock;

/**
 * The journal in the {@code rail_call} table: one insert per call, {@code ON CONFLICT DO NOTHING} on the
 * (kind, operation id) key. It joins the transaction of the event's handling (the processor's, which moves its
 * position past the event, or the recovery's), and the call starts only after that transaction has committed
 * ({@link RailCalls}): the row is on disk before the rail is called, and a rollback takes back a call that was
 * never made. Without a transaction around it, the insert commits on its own.
 */
@Component
public class JdbcRailCallJournal implements RailCallJournal {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public JdbcRailCallJournal(JdbcTemplate jdbc, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRED);
        this.clock = clock;
    }

    @Override
    public boolean firstCall(Kind kind, String operationId, SessionId session) {
        Integer inserted = transaction.execute(status -> jdbc.update("""
                        insert into rail_call (kind, operation_id, session_id, called_at) values (?, ?, ?, ?)
                        on conflict (kind, operation_id) do nothing""",
                kind.column(), operationId, session.value(), Timestamp.from(clock.instant())));
        return inserted != null && inserted == 1;
    }
}
