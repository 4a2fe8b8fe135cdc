package io.paysession.command.process;

import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.SessionId;
import io.paysession.command.process.RailCallJournal.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The engine's half of the rail contract (docs/rails.md): a money-moving call (authorize, capture, refund,
 * payout send) reaches the rail at most once per operation id. Before the call, the journal records it in a
 * committed transaction of its own; a call the journal already holds (the event is handled again after a
 * crash, a retry or a redelivery) is not made again: its outcome is unknown, and the rail's query for that
 * operation id is asked instead. A time-out or a failure of either is an unknown outcome, never an exception.
 */
@Component
public class MoneyMovingCalls {

    private static final Logger log = LoggerFactory.getLogger(MoneyMovingCalls.class);

    private final RailCallJournal journal;
    private final RailAnswers answers;

    public MoneyMovingCalls(RailCallJournal journal, RailAnswers answers) {
        this.journal = journal;
        this.answers = answers;
    }

    /**
     * The answer to the one call of {@code kind} for {@code operationId}: {@code call}'s if this is the first
     * time, else {@code query}'s; {@code unknown} when the rail gives none.
     */
    public <T> T callOnce(Kind kind, String operationId, SessionId session, Supplier<CompletionStage<T>> call,
                          Supplier<CompletionStage<T>> query, Function<ErrorDetails, T> unknown) {
        if (journal.firstCall(kind, operationId, session)) {
            return answers.outcomeOf(kind.column() + " " + operationId, call, unknown);
        }
        log.info("{} {} was sent before and its outcome not recorded: the rail is asked, not called again",
                kind.column(), operationId);
        return query(kind, operationId, query, unknown);
    }

    /** The rail's answer to a query about an operation whose outcome is unknown; {@code unknown} when none. */
    public <T> T query(Kind kind, String operationId, Supplier<CompletionStage<T>> query,
                       Function<ErrorDetails, T> unknown) {
        return answers.outcomeOf("query of " + kind.column() + " " + operationId, query, unknown);
    }
}
