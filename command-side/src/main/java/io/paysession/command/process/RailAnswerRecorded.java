package io.paysession.command.process;

import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * Ends a rail call in flight in the transaction of the command that records its answer: the command bus opens that
 * transaction before its handler interceptors run, so the row goes exactly when the answer's events commit, and
 * stays when the command is refused or fails (then {@link RailCalls} ends it or gives the event back). A command
 * carries the event's id in its metadata ({@link #ANSWERED_EVENT}); on a command bus that runs it in another
 * process, that process's interceptor ends it.
 */
@Component
public class RailAnswerRecorded {

    /** Metadata of a command that records a rail's answer: the id of the event whose handling made the call. */
    public static final String ANSWERED_EVENT = "railAnsweredEvent";

    public RailAnswerRecorded(CommandBus commandBus, RailCallsInFlight inFlight) {
        // registered here, not as a bean of its own: Axon's auto-configuration would register such a bean again
        commandBus.registerHandlerInterceptor(interceptor(inFlight));
    }

    static MessageHandlerInterceptor<CommandMessage<?>> interceptor(RailCallsInFlight inFlight) {
        return (UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain chain) -> {
            Object event = unitOfWork.getMessage().getMetaData().get(ANSWERED_EVENT);
            if (event instanceof String eventId) {
                inFlight.answered(eventId);
            }
            return chain.proceed();
        };
    }
}
