package io.paysession.gateway.deadletter;

import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.annotation.HandlerDefinition;
import org.axonframework.messaging.annotation.MessageHandlingMember;
import org.axonframework.messaging.annotation.ParameterResolverFactory;
import org.axonframework.messaging.annotation.WrappedMessageHandlingMember;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.annotation.Nonnull;
import java.lang.reflect.Executable;
import java.time.Duration;
import java.util.Optional;

/**
 * The event handlers of a dead-lettering processor, each call run in a savepoint of the processor's
 * transaction and tried a bounded number of times with a growing pause. The savepoint matters: a handler
 * whose SQL fails aborts PostgreSQL's whole transaction, and the processor could then neither park the event
 * nor store its token, so a poison event would block its segment for ever. Rolled back to the savepoint,
 * the transaction stays usable, the event is parked, and the handler leaves no half-written rows.
 * <p>
 * An operator's retry of a parked event gets one attempt: the operator is waiting for the answer.
 */
final class RetriedInSavepoints implements HandlerDefinition {

    private static final Logger log = LoggerFactory.getLogger(RetriedInSavepoints.class);
    private static final TransactionDefinition SAVEPOINT =
            new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_NESTED);

    private final HandlerDefinition delegate;
    private final String processingGroup;
    private final DeadLetterProperties properties;
    private final PlatformTransactionManager transactions;

    RetriedInSavepoints(HandlerDefinition delegate, String processingGroup, DeadLetterProperties properties,
                        PlatformTransactionManager transactions) {
        this.delegate = delegate;
        this.processingGroup = processingGroup;
        this.properties = properties;
        this.transactions = transactions;
    }

    @Override
    public <T> Optional<MessageHandlingMember<T>> createHandler(@Nonnull Class<T> declaringType,
                                                                @Nonnull Executable executable,
                                                                @Nonnull ParameterResolverFactory parameterResolverFactory) {
        return delegate.createHandler(declaringType, executable, parameterResolverFactory).map(this::guarded);
    }

    private <T> MessageHandlingMember<T> guarded(MessageHandlingMember<T> member) {
        if (!member.canHandleMessageType(EventMessage.class) || !member.hasAnnotation(EventHandler.class)) {
            return member;
        }
        return new Guarded<>(member);
    }

    private final class Guarded<T> extends WrappedMessageHandlingMember<T> {

        private final MessageHandlingMember<T> member;

        private Guarded(MessageHandlingMember<T> member) {
            super(member);
            this.member = member;
        }

        @Override
        public Object handle(@Nonnull Message<?> message, T target) throws Exception {
            int attempts = isRedelivery() ? 1 : properties.attempts();
            Duration pause = properties.firstRetryDelay();
            for (int attempt = 1; ; attempt++) {
                try {
                    return inSavepoint(message, target);
                } catch (Exception e) {
                    if (attempt >= attempts) {
                        throw e;
                    }
                    // the type only: the message of the last failure is logged once, when the event is parked
                    log.warn("Attempt {} of {} at event {} ({}) in {} failed with {}; trying again in {} ms", attempt,
                            attempts, message.getIdentifier(), message.getPayloadType().getSimpleName(),
                            processingGroup, e.getClass().getName(), pause.toMillis());
                    Thread.sleep(pause.toMillis());
                    pause = pause.multipliedBy(2);
                }
            }
        }

        private Object inSavepoint(Message<?> message, T target) throws Exception {
            if (!TransactionSynchronizationManager.isActualTransactionActive()) {
                return member.handle(message, target);
            }
            TransactionStatus savepoint = transactions.getTransaction(SAVEPOINT);
            Object result;
            try {
                result = member.handle(message, target);
            } catch (Exception | Error failure) {
                try {
                    transactions.rollback(savepoint);
                } catch (RuntimeException rollbackFailure) {
                    failure.addSuppressed(rollbackFailure);
                }
                throw failure;
            }
            transactions.commit(savepoint);
            return result;
        }
    }

    /** Handling a parked event on an operator's request (Axon puts the letter among the unit of work's resources). */
    private static boolean isRedelivery() {
        return CurrentUnitOfWork.isStarted()
                && CurrentUnitOfWork.get().resources().containsKey(DeadLetter.class.getName());
    }
}
