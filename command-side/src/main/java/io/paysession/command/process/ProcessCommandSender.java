package io.paysession.command.process;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends a process's command in a unit of work and transaction of its own, on one of its own threads. Sent from
 * the event handler's thread, the command would run nested in the processor's unit of work: its refusal would mark
 * the processor's transaction rollback-only (so the event would be retried forever) and the aggregate would stay
 * locked until the whole batch commits. {@link #send} waits for the command; {@link #sendAnswer} does not, and
 * carries the id of the event whose rail call it answers, so that {@link RailAnswerRecorded} ends that call in the
 * command's transaction. The threads are few and busy only while a command runs, never while a rail thinks.
 */
@Component
public class ProcessCommandSender implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ProcessCommandSender.class);

    private final CommandGateway commands;
    /** Commands wait on the database (their commit), not on the CPU: a few more threads than cores. */
    private static final int THREADS = 16;

    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService dispatcher = Executors.newFixedThreadPool(THREADS, runnable -> {
        Thread thread = new Thread(runnable, "process-commands-" + threads.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    public ProcessCommandSender(CommandGateway commands) {
        this.commands = commands;
    }

    /**
     * A refusal of the wrong-state kind means the answer was already recorded (the event is handled a
     * second time after a restart): nothing to do. Any other failure is thrown, so that the processor
     * retries the event.
     */
    public void send(Object command) {
        sendAndReport(command);
    }

    /** Like {@link #send}, and says whether the command was applied (false: refused as wrong state). */
    public boolean sendAndReport(Object command) {
        try {
            return dispatch(command, null).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + command.getClass().getSimpleName(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Sends {@code command}, which records the answer to the rail call started by the event {@code eventId},
     * without waiting: the future says whether it was applied (false: refused as wrong state, the answer was
     * recorded before) or fails with any other failure.
     */
    public CompletableFuture<Boolean> sendAnswer(Object command, String eventId) {
        return dispatch(command, eventId);
    }

    /** Runs {@code work} (a write of the process's own, not a command) on the same threads. */
    public CompletableFuture<Void> runAside(Runnable work) {
        return CompletableFuture.runAsync(work, dispatcher);
    }

    private CompletableFuture<Boolean> dispatch(Object command, String answeredEvent) {
        Object sent = answeredEvent == null ? command : GenericCommandMessage.asCommandMessage(command)
                .andMetaData(Map.of(RailAnswerRecorded.ANSWERED_EVENT, answeredEvent));
        return CompletableFuture.supplyAsync(() -> {
            try {
                commands.sendAndWait(sent);
                return true;
            } catch (RuntimeException e) {
                Throwable cause = refusalOf(e);
                if (cause instanceof PaymentsException refusal && refusal.code() == ErrorCode.SESSION_WRONG_STATE) {
                    log.info("{} not applied, the session has moved on: {}", command.getClass().getSimpleName(),
                            refusal.getMessage());
                    return false;
                }
                throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
            }
        }, dispatcher);
    }

    /**
     * The refusal behind {@code failure}: a command bus that runs the command in another process answers a
     * refusal as a {@link CommandExecutionException} carrying its {@link ErrorDetails} (see
     * {@code ExceptionWrappingHandlerInterceptor}), which is turned back into the {@link PaymentsException} the
     * local bus gives, so that the processes act on a refusal alike on either bus. Anything else is unchanged.
     */
    static Throwable refusalOf(Throwable failure) {
        if (!(failure instanceof CommandExecutionException wrapped)) {
            return failure;
        }
        if (wrapped.getCause() instanceof PaymentsException refusal) {
            return refusal;
        }
        return wrapped.getDetails()
                .filter(ErrorDetails.class::isInstance)
                .map(ErrorDetails.class::cast)
                .<Throwable>map(details -> new PaymentsException(details.code(), details.description()))
                .orElse(failure);
    }

    @Override
    public void destroy() {
        dispatcher.shutdownNow();
    }
}
