package io.paysession.command;

import io.paysession.api.error.PaymentsException;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * Turns a refusal ({@link PaymentsException}) of a command handler into a {@link CommandExecutionException} whose
 * details are the refusal's {@link io.paysession.api.error.ErrorDetails}: a command bus that answers from another
 * process sends the exception's message and its details, never the exception's class, so without them the sender
 * would see a bare failure and answer 500. The message and the details carry the refusal's description, which is
 * what the partner reads anyway and never holds card data. Anything else passes unchanged.
 * <p>
 * Registered by {@link RemoteRefusals} on a command bus that hands commands to other processes only: on the local
 * bus the sender gets the refusal itself, as the processes that act on a refusal expect.
 */
public class ExceptionWrappingHandlerInterceptor implements MessageHandlerInterceptor<CommandMessage<?>> {

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain interceptorChain)
            throws Exception {
        try {
            return interceptorChain.proceed();
        } catch (PaymentsException refusal) {
            throw new CommandExecutionException(refusal.getMessage(), refusal, refusal.details());
        }
    }
}
