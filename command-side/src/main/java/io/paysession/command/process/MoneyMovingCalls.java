package io.paysession.command.process;

import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.SessionId;
import io.paysession.command.process.RailCallJournal.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The engine's half of the rail contract (docs/rails.md): a money-moving call (authorize, capture, refund,
 * payout send) reaches the rail at most once per operation id. The journal records the call in the transaction
 * of the event's handling, and the call starts after that commit ({@link RailCalls}); a call the journal already
 * holds (the event is handled again after a crash, by the recovery, or from a dead-letter queue) is not made again:
 * its outcome is unknown, and the rail's query for that operation id is asked instead. A time-out or a failure of
 * either is an unknown outcome, never an exception.
 */
@Component
public class MoneyMovingCalls {

    private static final Logger log = LoggerFactory.getLogger(MoneyMovingCalls.class);

    private final RailCallJournal journal;
    private final RailCalls rails;

    public MoneyMovingCalls(RailCallJournal journal, RailCalls rails) {
        this.journal = journal;
        this.rails = rails;
    }

    /**
     * The one call of {@code kind} for {@code operationId}, made for the event {@code eventId}: {@code call} if
     * this is the first time, else {@code query}; its answer ({@code unknown} when the rail gives none) is recorded
     * by the command {@code record} makes of it.
     */
    public <T> CompletableFuture<Void> callOnce(String eventId, Kind kind, String operationId, SessionId session,
                                                Supplier<CompletionStage<T>> call, Supplier<CompletionStage<T>> query,
                                                Function<ErrorDetails, T> unknown, Function<T, Object> record) {
        if (journal.firstCall(kind, operationId, session)) {
            return rails.recordOutcome(eventId, session, kind.column() + " " + operationId, call, unknown, record);
        }
        log.info("{} {} was sent before and its outcome not recorded: the rail is asked, not called again",
                kind.column(), operationId);
        return query(eventId, kind, operationId, session, query, unknown, record);
    }

    /** The rail's answer to a query about an operation whose outcome is unknown; {@code unknown} when none. */
    public <T> CompletableFuture<Void> query(String eventId, Kind kind, String operationId, SessionId session,
                                             Supplier<CompletionStage<T>> query, Function<ErrorDetails, T> unknown,
                                             Function<T, Object> record) {
        return rails.recordOutcome(eventId, session, "query of " + kind.column() + " " + operationId, query, unknown,
                record);
    }
}
