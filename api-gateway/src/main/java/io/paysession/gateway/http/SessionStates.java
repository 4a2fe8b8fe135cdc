package io.paysession.gateway.http;

import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewCache;
import io.paysession.api.session.view.SessionViewFold;
import io.paysession.command.vault.CardsVaultedWithCommands;
import io.paysession.gateway.idempotency.IdempotentCommands;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Runs a partner's command and answers with the session exactly as that command left it: the session's
 * events are folded up to the last one the command caused (Axon marks each with the command's id as
 * {@code correlationId}). A rail answer that lands a moment later does not leak into the response; it
 * shows in the next {@code session/status} and in its webhook. The answer is normally the view the command's
 * own transaction folded ({@link SessionViewCache#takeAnswer}); the stream is read and folded only when that is
 * missing. A command that lost a race with another node (the event store refused its append) is run again on the
 * session as it now is.
 */
@Component
public class SessionStates {

    private static final String CORRELATION_KEY = "correlationId";
    /**
     * Tries of a command that lost a race with another node. The command runs again on the session as the
     * winner left it, so the partner gets the answer a serialized order gives (a refund that still fits is
     * made; one that no longer fits is refund_amount_too_large), as on a single node, where the aggregate's
     * lock serializes commands.
     */
    private static final int ATTEMPTS = 3;

    private final CommandGateway commands;
    private final EventStore eventStore;
    private final IdempotentCommands idempotentCommands;
    private final CardsVaultedWithCommands cardsWithCommands;
    private final SessionViewCache views;

    public SessionStates(CommandGateway commands, EventStore eventStore, IdempotentCommands idempotentCommands,
                         CardsVaultedWithCommands cardsWithCommands, SessionViewCache views) {
        this.commands = commands;
        this.eventStore = eventStore;
        this.idempotentCommands = idempotentCommands;
        this.cardsWithCommands = cardsWithCommands;
        this.views = views;
    }

    public SessionView runAndRead(SessionId sessionId, Object command) {
        CommandMessage<Object> message = GenericCommandMessage.<Object>asCommandMessage(command)
                .andMetaData(RequestMetadata.current())
                .andMetaData(idempotentCommands.beforeCommandOn(sessionId));
        views.expectAnswer(message.getIdentifier());
        Optional<SessionView> answer;
        try {
            cardsWithCommands.sendWith(message.getIdentifier(), sessionId.value(), RequestCards.take(), () -> {
                for (int attempt = 1; ; attempt++) {
                    try {
                        return commands.sendAndWait(message);
                    } catch (ConcurrencyException e) {
                        // another node appended to the session first; the attempt left nothing behind (one transaction)
                        if (attempt == ATTEMPTS) {
                            throw e;
                        }
                    }
                }
            });
        } finally {
            answer = views.takeAnswer(message.getIdentifier(), sessionId.value());
        }
        if (answer.isPresent()) {
            return answer.get();
        }
        SessionView view = foldUpTo(sessionId, CORRELATION_KEY, message.getIdentifier()).afterMarked();
        if (view == null) {
            throw new IllegalStateException("no events for " + sessionId + " after a successful command");
        }
        return view;
    }

    /**
     * The session as request {@code requestId} left it (its events carry the request id as metadata); empty
     * when none of its events reached the store.
     */
    public Optional<SessionView> stateAfterRequest(SessionId sessionId, String requestId) {
        Folded folded = foldUpTo(sessionId, RequestMetadataKeys.REQUEST_ID, requestId);
        return Optional.ofNullable(folded.marked());
    }

    /** The whole session, and the session after the last event whose metadata {@code key} is {@code value}. */
    private record Folded(SessionView whole, SessionView marked) {
        SessionView afterMarked() {
            return marked != null ? marked : whole;
        }
    }

    private Folded foldUpTo(SessionId sessionId, String key, String value) {
        DomainEventStream stream = eventStore.readEvents(sessionId.value(), 0);
        SessionView view = null;
        SessionView marked = null;
        while (stream.hasNext()) {
            DomainEventMessage<?> message = stream.next();
            if (message.getPayload() instanceof SessionEvent event) {
                view = SessionViewFold.apply(view, event, message.getSequenceNumber());
                if (value.equals(message.getMetaData().get(key))) {
                    marked = view;
                }
            }
        }
        return new Folded(view, marked);
    }
}
