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
 * (kind, operation id) key, committed in a transaction of its own (the processor's transaction around the
 * event handler is suspended), so the row is on disk before the rail is called and stays there whatever
 * happens to the event's handling afterwards.
 */
@Component
public class JdbcRailCallJournal implements RailCallJournal {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate ownTransaction;
    private final Clock clock;

    public JdbcRailCallJournal(JdbcTemplate jdbc, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = jdbc;
        this.ownTransaction = new TransactionTemplate(transactions);
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.clock = clock;
    }

    @Override
    public boolean firstCall(Kind kind, String operationId, SessionId session) {
        Integer inserted = ownTransaction.execute(status -> jdbc.update("""
                        insert into rail_call (kind, operation_id, session_id, called_at) values (?, ?, ?, ?)
                        on conflict (kind, operation_id) do nothing""",
                kind.column(), operationId, session.value(), Timestamp.from(clock.instant())));
        return inserted != null && inserted == 1;
    }
}
