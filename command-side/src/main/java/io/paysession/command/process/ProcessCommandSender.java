package io.paysession.command.process;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sends a process's command in a unit of work and transaction of its own, on another thread, and waits
 * for it. Sent from the event handler's thread, the command would run nested in the processor's unit of
 * work: its refusal would mark the processor's transaction rollback-only (so the event would be retried
 * forever) and the aggregate would stay locked until the whole batch commits.
 */
@Component
public class ProcessCommandSender implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ProcessCommandSender.class);

    private final CommandGateway commands;
    private final ExecutorService dispatcher = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "process-commands");
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
            CompletableFuture.runAsync(() -> commands.sendAndWait(command), dispatcher).get();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + command.getClass().getSimpleName(), e);
        } catch (ExecutionException e) {
            Throwable cause = refusalOf(e.getCause());
            if (cause instanceof PaymentsException refusal && refusal.code() == ErrorCode.SESSION_WRONG_STATE) {
                log.info("{} not applied, the session has moved on: {}", command.getClass().getSimpleName(),
                        refusal.getMessage());
                return false;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(cause);
        }
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
