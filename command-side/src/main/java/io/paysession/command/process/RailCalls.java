package io.paysession.command.process;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.SessionId;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Makes a process's rail calls without holding a thread while the rail thinks. Handling an event records the call
 * as in flight ({@link RailCallsInFlight}) in the transaction that moves the processor past the event, and starts
 * it only once that transaction has committed; the rail's answer, when it comes, is sent to the Session as a
 * command ({@link ProcessCommandSender#sendAnswer}), whose transaction ends the call. Whatever stops that chain (a
 * crash, a command that fails) leaves the call in flight, and {@link RailCallRecovery} hands the event to the
 * process again, as a redelivery would: a money-moving call is then only queried ({@link MoneyMovingCalls}).
 * <p>
 * Two kinds of calls. {@link #recordOutcome} serves money-moving calls and their queries: an answer that does not
 * come within {@code payments.rails.answer-timeout}, a failure or an empty answer is an unknown outcome, recorded
 * as such (the Session then schedules the query), never a reason to call again. {@link #retryable} serves calls
 * that move no money (pre-check, release): a missing answer gives the event back, to be handled again after a
 * back-off that doubles from 1 s up to a minute. Only an exception's class is logged: a rail's message may quote
 * what it was sent.
 * <p>
 * Each method returns a future that completes once the chain is over (the answer recorded, or the event given
 * back); the processor ignores it, tests wait on it.
 */
@Component
public class RailCalls {

    private static final Logger log = LoggerFactory.getLogger(RailCalls.class);
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration LAST_RETRY = Duration.ofMinutes(1);

    private final RailCallsInFlight inFlight;
    private final ProcessCommandSender commands;
    private final Duration timeout;

    public RailCalls(RailCallsInFlight inFlight, ProcessCommandSender commands,
                     @Value("${payments.rails.answer-timeout:60s}") Duration timeout) {
        this.inFlight = inFlight;
        this.commands = commands;
        this.timeout = timeout;
    }

    /**
     * A money-moving call, or a query of one, for the event {@code eventId}: its answer, or {@code unknown} with a
     * {@code provider_timeout} reason when there is none, is recorded by the command {@code record} makes of it.
     */
    public <T> CompletableFuture<Void> recordOutcome(String eventId, SessionId session, String what,
                                                     Supplier<CompletionStage<T>> call,
                                                     Function<ErrorDetails, T> unknown, Function<T, Object> record) {
        return start(eventId, session, () -> answerOf(call).handle((answer, failure) -> {
            if (failure == null && answer != null) {
                return record.apply(answer);
            }
            log.warn("{}: the rail gave {}; the outcome is unknown, the rail will be asked, never called again",
                    what, problem(failure));
            return record.apply(unknown.apply(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                    "The provider's answer did not arrive; the outcome is being queried")));
        }));
    }

    /**
     * A call that moves no money, for the event {@code eventId}: its answer is recorded by the command
     * {@code record} makes of it (none when it makes null); a missing answer gives the event back for later.
     */
    public <T> CompletableFuture<Void> retryable(String eventId, SessionId session, String what,
                                                 Supplier<CompletionStage<T>> call, Function<T, Object> record) {
        return start(eventId, session, () -> answerOf(call).handle((answer, failure) -> {
            if (failure != null || answer == null) {
                log.warn("{}: the rail gave {}; it will be asked again", what, problem(failure));
                throw new RailGaveNoAnswer();
            }
            return record.apply(answer);
        }));
    }

    private CompletableFuture<Void> start(String eventId, SessionId session,
                                          Supplier<CompletableFuture<Object>> answerAsCommand) {
        inFlight.started(eventId, session);
        CompletableFuture<Void> done = new CompletableFuture<>();
        afterCommit(() -> {
            CompletableFuture<Object> command;
            try {
                command = answerAsCommand.get();
            } catch (RuntimeException e) {
                command = CompletableFuture.failedFuture(e);
            }
            command.thenCompose(recording -> recording == null
                            ? commands.runAside(() -> inFlight.answered(eventId)).thenApply(ended -> true)
                            : commands.sendAnswer(recording, eventId))
                    .thenCompose(applied -> applied ? CompletableFuture.<Void>completedFuture(null)
                            // refused as wrong state: the answer was recorded before, the row is ours to end
                            : commands.runAside(() -> inFlight.answered(eventId)))
                    .exceptionallyCompose(failure -> giveBack(eventId, failure))
                    .whenComplete((ended, failure) -> done.complete(null));
        });
        return done;
    }

    /** The chain broke: the event is handled again after the back-off (by {@link RailCallRecovery}). */
    private CompletableFuture<Void> giveBack(String eventId, Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (!(cause instanceof RailGaveNoAnswer)) {
            log.warn("The answer to the rail call of event {} could not be recorded ({}); it will be handled again",
                    eventId, cause.getClass().getName());
        }
        return commands.runAside(() -> inFlight.retryAfter(eventId, backoff(inFlight.attempts(eventId))))
                .exceptionally(unrecorded -> {
                    log.error("Event {} could not be given back ({}); it stays in flight until its lease ends", eventId,
                            unrecorded.getClass().getName());
                    return null;
                });
    }

    static Duration backoff(int attempts) {
        Duration delay = FIRST_RETRY.multipliedBy(1L << Math.min(attempts, 16));
        return delay.compareTo(LAST_RETRY) > 0 ? LAST_RETRY : delay;
    }

    /** The call's answer within the time-out, never the rail's own future (a time-out must not complete it). */
    private <T> CompletableFuture<T> answerOf(Supplier<CompletionStage<T>> call) {
        try {
            CompletionStage<T> answer = call.get();
            if (answer == null) {
                return CompletableFuture.failedFuture(new IllegalStateException("no answer"));
            }
            return answer.toCompletableFuture().copy().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private String problem(Throwable failure) {
        if (failure == null) {
            return "an empty answer";
        }
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof java.util.concurrent.TimeoutException ? "no answer within " + timeout
                : "a failure (" + cause.getClass().getName() + ")";
    }

    /**
     * Runs {@code action} once the transaction the caller is in has committed (the processor's, or the recovery's),
     * and not at all if it rolls back; at once when there is none.
     */
    static void afterCommit(Runnable action) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    action.run();
                }
            });
        } else if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().afterCommit(unitOfWork -> action.run());
        } else {
            action.run();
        }
    }

    /** A call that moves no money got no answer (already logged). */
    private static final class RailGaveNoAnswer extends RuntimeException {
        RailGaveNoAnswer() {
            super(null, null, false, false);
        }
    }
}
