package io.paysession.command.process;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Waits for a rail's answer on the processor's thread, at most {@code payments.rails.answer-timeout}, so
 * that the processor's position moves only once the answer is recorded.
 * <p>
 * Two kinds of waiting. {@link #await} serves calls that move no money (pre-check, release): a rail that
 * fails or does not answer in time fails the handler, and the event is retried. {@link #outcomeOf} serves
 * money-moving calls and their queries: there a missing answer is an unknown outcome, returned as such,
 * never an exception that would make the processor handle the event (and call the rail) again.
 */
@Component
public class RailAnswers {

    private static final Logger log = LoggerFactory.getLogger(RailAnswers.class);

    private final Duration timeout;

    public RailAnswers(@Value("${payments.rails.answer-timeout:60s}") Duration timeout) {
        this.timeout = timeout;
    }

    public <T> T await(CompletionStage<T> answer) {
        try {
            return answer.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a rail", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the rail failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the rail did not answer within " + timeout, e);
        }
    }

    /**
     * Makes {@code call} and waits for its answer; when the rail throws, fails its answer, answers nothing
     * (null) or not in time, the answer is {@code unknown} with a {@code provider_timeout} reason. Only the
     * exception's class is logged: a rail's message may quote what it was sent. An interrupted wait (the
     * application stops) is thrown: the event is handled again after the restart, and the journal makes
     * that a query.
     */
    public <T> T outcomeOf(String what, Supplier<CompletionStage<T>> call, Function<ErrorDetails, T> unknown) {
        String problem;
        try {
            CompletionStage<T> answer = call.get();
            if (answer == null) {
                problem = "no answer";
            } else {
                T outcome = answer.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (outcome != null) {
                    return outcome;
                }
                problem = "an empty answer";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a rail", e);
        } catch (ExecutionException e) {
            problem = "a failure (" + (e.getCause() == null ? "unknown" : e.getCause().getClass().getName()) + ")";
        } catch (TimeoutException e) {
            problem = "no answer within " + timeout;
        } catch (RuntimeException e) {
            problem = "a failure (" + e.getClass().getName() + ")";
        }
        log.warn("{}: the rail gave {}; the outcome is unknown, the rail will be asked, never called again",
                what, problem);
        return unknown.apply(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                "The provider's answer did not arrive; the outcome is being queried"));
    }
}
