package io.paysession.gateway.idempotency;

import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * The fence of an idempotency key: a command sent by a request that holds a key runs only if, inside the command's
 * own transaction, the key is still that request's, and the check locks the key's row until the transaction ends.
 * A request held up past its lease (a paused node) whose key another request took over is therefore refused before
 * anything of it is stored; and a takeover waits for a command that is committing, then finds its events and answers
 * from them. So a key's request never runs twice, whatever the timing. The owner travels as command metadata that
 * Axon does not copy onto events, so commands of the processes that follow never carry it.
 */
@Component
public class IdempotencyFence {

    /** Metadata of a command whose request holds an idempotency key: that request's id. */
    public static final String OWNER = "idempotencyKeyOwner";

    private final IdempotencyStore store;

    /**
     * Registers the check on the command bus itself. The check is not a bean: Axon's auto-configuration registers
     * every command handler interceptor bean on the bus as well, and the key's row would be read twice per command.
     */
    public IdempotencyFence(IdempotencyStore store, CommandBus commandBus) {
        this.store = store;
        commandBus.registerHandlerInterceptor(new Check());
    }

    static PaymentsException keyLost() {
        return new PaymentsException(ErrorCode.IDEMPOTENCY_KEY_ALREADY_EXISTS,
                "Another request took this idempotency key over while this one was held up; retry with the same key "
                        + "for its answer");
    }

    private final class Check implements MessageHandlerInterceptor<CommandMessage<?>> {

        @Override
        public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain chain)
                throws Exception {
            MetaData metaData = unitOfWork.getMessage().getMetaData();
            if (metaData.get(OWNER) instanceof String owner
                    && metaData.get(RequestMetadataKeys.PROJECT) instanceof String project
                    && metaData.get(RequestMetadataKeys.IDEMPOTENCY_KEY) instanceof String key
                    && !store.holds(project, key, owner)) {
                throw keyLost();
            }
            return chain.proceed();
        }
    }
}
