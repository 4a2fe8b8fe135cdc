package io.paysession.command.vault;

import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Stores the cards a request brought in the transaction of the command the request sends. The command bus
 * opens that transaction before its handler interceptors run, so the vault rows commit with the command's
 * events, and a command the session refuses (another project's session, a session in the wrong state) rolls
 * them back with everything else: a refused request leaves no card, and no security code, in the vault.
 * A command run again after losing a race with another node stores the cards again in its new transaction.
 */
@Component
public class CardsVaultedWithCommands {

    private static final Logger log = LoggerFactory.getLogger(CardsVaultedWithCommands.class);

    private final CardVault vault;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    public CardsVaultedWithCommands(CardVault vault, CommandBus commandBus) {
        this.vault = vault;
        // registered here, not as a bean of its own: Axon's auto-configuration would register such a bean again
        commandBus.registerHandlerInterceptor(new StoreWithCommand());
    }

    /**
     * Runs {@code send}, which sends the command with id {@code commandId} on session {@code sessionId} and waits
     * for it, storing {@code cards} with it. Should the command have been handled where this interceptor did not
     * see it (a command bus that routes to another process), the cards are stored after it, as they were before
     * this class existed, so that the payment still finds its card.
     */
    public <T> T sendWith(String commandId, String sessionId, List<SealedCard> cards, Supplier<T> send) {
        if (cards.isEmpty()) {
            return send.get();
        }
        Pending entry = new Pending(sessionId, List.copyOf(cards));
        pending.put(commandId, entry);
        try {
            T result = send.get();
            if (!entry.stored) {
                log.error("Command {} was not handled in this process; its {} card(s) are stored after it",
                        commandId, cards.size());
                cards.forEach(card -> vault.insert(card, sessionId));
            }
            return result;
        } finally {
            pending.remove(commandId);
        }
    }

    /** Runs inside the command's unit of work, whose transaction the command bus has already begun. */
    private final class StoreWithCommand implements MessageHandlerInterceptor<CommandMessage<?>> {
        @Override
        public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain interceptorChain)
                throws Exception {
            Pending entry = pending.get(unitOfWork.getMessage().getIdentifier());
            if (entry != null) {
                entry.cards.forEach(card -> vault.insert(card, entry.sessionId));
                unitOfWork.afterCommit(committed -> entry.stored = true);
            }
            return interceptorChain.proceed();
        }
    }

    private static final class Pending {
        private final String sessionId;
        private final List<SealedCard> cards;
        private volatile boolean stored;

        private Pending(String sessionId, List<SealedCard> cards) {
            this.sessionId = sessionId;
            this.cards = cards;
        }
    }
}
