package io.paysession.command;

import org.axonframework.axonserver.connector.command.AxonServerCommandBus;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.distributed.DistributedCommandBus;
import org.springframework.stereotype.Component;

/**
 * Registers the {@link ExceptionWrappingHandlerInterceptor} when the command bus hands commands to other processes
 * (Axon Server's, or a {@link DistributedCommandBus}), so that a refusal reaches the sender with its error code
 * (the gateway's {@code ApiExceptionHandler.remoteRefusal} reads it). The local bus is left as it is: there a
 * refusal reaches its sender as the {@link io.paysession.api.error.PaymentsException} itself.
 * <p>
 * A class of its own rather than the interceptor as a bean: Axon's auto-configuration registers every handler
 * interceptor bean on whatever command bus there is, the local one included.
 */
@Component
public class RemoteRefusals {

    public RemoteRefusals(CommandBus commandBus) {
        if (answersFromOtherProcesses(commandBus)) {
            commandBus.registerHandlerInterceptor(new ExceptionWrappingHandlerInterceptor());
        }
    }

    /** Whether the bus may run a command in another process and send back only its result's message and details. */
    static boolean answersFromOtherProcesses(CommandBus commandBus) {
        return commandBus instanceof AxonServerCommandBus || commandBus instanceof DistributedCommandBus;
    }
}
