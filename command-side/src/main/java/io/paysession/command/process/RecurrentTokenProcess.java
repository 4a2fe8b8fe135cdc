package io.paysession.command.process;

import io.paysession.api.node.NodeRoles;
import io.paysession.api.recurrent.IssueRecurrentTokenCommand;
import io.paysession.api.recurrent.RecurrentTokenDisabledEvent;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.session.EndRecurrentGrantCommand;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * A token a session granted becomes a token of its own, and a token the partner disables is shown finished on
 * the payment that granted it. Issuing is idempotent: a token that exists already (the grant handled a second
 * time after a restart) is left as it is; so is ending a grant that is shown finished already.
 */
@Component
@ConditionalOnExpression(NodeRoles.RUNS_PROCESSES)
@ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class RecurrentTokenProcess {

    private static final Logger log = LoggerFactory.getLogger(RecurrentTokenProcess.class);

    private final ProcessCommandSender commands;
    private final EventStore events;

    public RecurrentTokenProcess(ProcessCommandSender commands, EventStore events) {
        this.commands = commands;
        this.events = events;
    }

    @EventHandler
    void on(RecurrentTokenGrantedEvent event) {
        try {
            commands.send(new IssueRecurrentTokenCommand(event.token(), event.project(), event.sessionId(),
                    event.paymentId(), event.source(), event.occurredAt()));
        } catch (AggregateStreamCreationException e) {
            log.info("Recurrent token of {} exists already", event.paymentId());
        }
    }

    /** The session and payment that granted the token are in the token's first event. */
    @EventHandler
    void on(RecurrentTokenDisabledEvent event) {
        Optional<RecurrentTokenIssuedEvent> issued = events.readEvents(event.token()).asStream()
                .map(message -> message.getPayload())
                .filter(RecurrentTokenIssuedEvent.class::isInstance)
                .map(RecurrentTokenIssuedEvent.class::cast)
                .findFirst();
        if (issued.isEmpty()) {
            log.error("A disabled recurrent token has no issue in its stream; no payment shows it finished");
            return;
        }
        commands.send(new EndRecurrentGrantCommand(issued.get().sessionId(), issued.get().paymentId(), event.token(),
                event.occurredAt()));
    }
}
