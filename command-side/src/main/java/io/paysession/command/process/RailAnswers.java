package io.paysession.command.process;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a rail's answer on the processor's thread, so that the processor's position moves only once
 * the answer is recorded. A rail that does not answer in time fails the handler, and the event is retried.
 */
@Component
public class RailAnswers {

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
}
